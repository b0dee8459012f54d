#!/usr/bin/python3
"""Print README's walkthrough as one shell script, for readme-walkthrough.

  walkthrough.py README.md

The walkthrough's commands are the fenced blocks whose info string is
"sh walkthrough", in the order README gives them; the case runs exactly
them.  Exits 1 when README has none.
"""

import sys


def main():
    lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
    out, inside, blocks = [], False, 0
    for line in lines:
        if not inside and line.strip() == "```sh walkthrough":
            inside, blocks = True, blocks + 1
        elif inside and line.strip() == "```":
            inside = False
        elif inside:
            out.append(line)
    if not blocks or inside:
        sys.stderr.write("walkthrough.py: %s: no complete walkthrough "
                         "block\n" % sys.argv[1])
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
