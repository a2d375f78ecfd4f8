#!/usr/bin/env python3
"""Prints one recipe of the instructor's guide, as the page writes it: the Nth ```sh block under the heading
whose anchor is given, up to the next heading of any level (docs/instructors.md). The self-test runs what this
prints, so a recipe is tested exactly as an instructor reads it; a translation keeps every block byte for byte
(docs.translations.<language>), so the blocks of the four languages are these.

    guide_recipe.py <page.md> <anchor> [<n>, default 1]
"""
import re
import sys


def recipe(page, anchor, number):
    heading = re.compile(r"^#+ .*\{#([A-Za-z0-9_]+)\}\s*$")
    current, count, block, inside, wanted = None, 0, [], False, False
    for line in open(page, encoding="utf-8"):
        if inside:
            if line.startswith("```"):
                if wanted:
                    return "".join(block)
                inside, block = False, []
            else:
                block.append(line)
            continue
        if line.startswith("```"):
            inside, wanted = True, False
            if current == anchor and line.strip() == "```sh":
                count += 1
                wanted = count == number
            continue
        match = heading.match(line)
        if match:
            current = match.group(1)
        elif line.startswith("#"):
            current = None
    sys.exit(f"{page}: no sh block number {number} under the heading {{#{anchor}}}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.stdout.write(recipe(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 1))
