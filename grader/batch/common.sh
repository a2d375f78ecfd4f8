# What the batch's scripts share (sourced by grader/batch.sh and grader/batch/*.sh; sets nothing by itself).

# The reporting program built with the batch's kit ($1): it writes grades.csv, timings.csv and class.html.
report_program() {
  echo "${TILELAB_REPORT:-$1/grader/tilelab-report}"
}

# A student's name: the entry's file name without its archive extension.
student_name() {
  local name
  name=$(basename "$1")
  name=${name%.zip}; name=${name%.tar.gz}; name=${name%.tgz}; name=${name%.tar}
  echo "$name"
}

# not_graded <report folder> <seconds, or ""> <note>: the record of a grading that gave no points (grader/report reads
# it in place of summary.json). The note may quote a submission's text: only printable ASCII is kept (valid JSON
# whatever the bytes), \ and " escaped.
not_graded() {
  local note
  note=$(printf '%s' "$3" | LC_ALL=C tr -cd ' -~' | sed 's/[\\"]/\\&/g')
  rm -f "$1/summary.json"
  printf '{"not_graded": 1, "seconds": %s, "note": "%s"}\n' "${2:-null}" "$note" >"$1/not-graded.json"
}

# How many submissions of the batch in $1 have finished: a summary or a not-graded record each.
finished_count() {
  find "$1/reports" -mindepth 2 -maxdepth 2 \( -name summary.json -o -name not-graded.json \) | wc -l
}
