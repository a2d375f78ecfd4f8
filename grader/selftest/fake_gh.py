#!/usr/bin/env python3
"""A stand-in for GitHub's command line tool `gh`, for the self-test of the instructor's guide's GitHub Classroom
recipes (guide_test.sh classroom), which CI runs without a network. It answers what those recipes ask, from the
fixtures in $FAKE_GH_DIR, as GitHub's REST API would:

  gh api [--paginate] orgs/<org>/repos?per_page=100 --jq '.[].name'    repos.txt, 100 names a page: one page
                                                                        without --paginate, every page with it
  gh api [--paginate] repos/<org>/<repo>/activity?... --jq <tsv>       activity/<repo>.json, newest first
  gh repo create <org>/<name> --private --source <dir> --push          <dir> must be a git repository with a commit
  gh repo edit <org>/<name> --template

Each call is appended to calls.log. A --jq expression other than the recipes' is refused; where `jq` is installed,
the answer is also computed by jq from the same JSON and must agree, so the recipes' expressions are jq's own.
"""
import json
import os
import shutil
import subprocess
import sys

HOME = os.environ["FAKE_GH_DIR"]
NAMES = ".[].name"
ACTIVITY = ".[] | [.timestamp, .activity_type, .after] | @tsv"


def fail(message):
    sys.stderr.write("fake gh: " + message + "\n")
    sys.exit(1)


def answer(pages, expression):
    """What `gh api --jq` prints for these pages of JSON."""
    lines = []
    for page in pages:
        if expression == NAMES:
            lines += [item["name"] for item in page]
        elif expression == ACTIVITY:
            lines += ["\t".join([item["timestamp"], item["activity_type"], item["after"]]) for item in page]
        else:
            fail("no answer for --jq " + expression)
    text = "".join(line + "\n" for line in lines)
    if shutil.which("jq"):
        by_jq = "".join(subprocess.run(["jq", "-r", expression], input=json.dumps(page), capture_output=True,
                                       text=True, check=True).stdout for page in pages)
        if by_jq != text:
            fail("jq reads " + expression + " otherwise:\n" + by_jq)
    return text


def api(args):
    paginate = "--paginate" in args
    args = [a for a in args if a != "--paginate"]
    if len(args) != 3 or args[1] != "--jq":
        fail("api: expected <endpoint> --jq <expression>, got " + " ".join(args))
    endpoint, expression = args[0], args[2]
    path = endpoint.split("?")[0].split("/")
    if len(path) == 3 and path[0] == "orgs" and path[2] == "repos":
        with open(os.path.join(HOME, "repos.txt")) as names:
            items = [{"name": line.strip()} for line in names if line.strip()]
    elif len(path) == 4 and path[0] == "repos" and path[3] == "activity":
        file = os.path.join(HOME, "activity", path[2] + ".json")
        items = json.load(open(file)) if os.path.exists(file) else []
    else:
        fail("api: no fixture for " + endpoint)
    pages = [items[i:i + 100] for i in range(0, len(items), 100)] or [[]]
    sys.stdout.write(answer(pages if paginate else pages[:1], expression))


def repo(args):
    if args[:1] == ["create"] and "--source" in args and "--push" in args:
        source = args[args.index("--source") + 1]
        if subprocess.run(["git", "-C", source, "rev-parse", "--verify", "HEAD"], capture_output=True).returncode:
            fail("repo create: " + source + " has no commit to push")
    elif args[:1] != ["edit"]:
        fail("repo: no answer for " + " ".join(args))


def main():
    with open(os.path.join(HOME, "calls.log"), "a") as log:
        log.write(" ".join(sys.argv[1:]) + "\n")
    command, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if command == "api":
        api(args)
    elif command == "repo":
        repo(args)
    else:
        fail("no answer for " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    try:
        main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader took what it needed (awk's exit), as with the real gh
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
