# What the batch's scripts share (sourced by grader/batch.sh and grader/batch/*.sh; sets nothing by itself).

# The labs the rubric grades, in order ("lab01 lab02 ..."): the columns of grades.csv.
rubric_labs() {
  grep -o '"lab": *"lab[0-9]*"' "$1/grader/rubric.json" | sed 's/.*"\(lab[0-9]*\)"/\1/' | awk '!seen[$0]++' | tr '\n' ' '
}

# A student's name: the entry's file name without its archive extension.
student_name() {
  local name
  name=$(basename "$1")
  name=${name%.zip}; name=${name%.tar.gz}; name=${name%.tgz}; name=${name%.tar}
  echo "$name"
}

# One empty field per lab of $1 (a row with no points: "," per lab).
empty_lab_fields() {
  local lab
  for lab in $1; do printf ','; done
}
