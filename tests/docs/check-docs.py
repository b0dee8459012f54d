#!/usr/bin/python3
"""The documents agree with the code, and with each other (make check-docs).

  check-docs.py [--build DIR] [--src DIR]

Fails (exit 1, one line per problem) unless:

  - the man page in the tree, harness/cli/jankgate.1, is BUILD/jankgate.1,
    the page the build made with its list of configuration keys generated
    from harness/model/config_keys.c (tools/gen-man.c): a key added to
    the table and not copied into the page fails here;
  - every key `jankgate help config` lists is a tagged paragraph of the
    man page;
  - every long option of the option tables of harness/cli/*.c, and every
    short one of their getopt strings, is in the man page;
  - every key, option and command README.md and docs/*.md name in
    backquotes exists: `baseline.repo` is a key, `--shard` an option of
    some command, `jankgate gate` a command;
  - README.md lists the exit statuses the man page's EXIT STATUS lists;
  - every document (docs/, NEWS, tests/e2e/FORMAT.md) is reached from
    README.md by the links of the Markdown documents it links, or named
    in the man page, and every relative link of the Markdown documents
    leads to a file.

It runs the built jankgate only for `help config`; seconds.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

problems = []


def problem(msg):
    problems.append(msg)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def roff_plain(text):
    """The man page's words without roff escapes: \\- as -, no fonts."""
    text = re.sub(r"\\f[BIRP]", "", text)
    return text.replace("\\-", "-").replace("\\e", "\\")


def cli_options(src):
    """Long and short options of every command's parser, and main's."""
    longs, shorts = set(), set()
    common = ""
    cmd_h = read(os.path.join(src, "harness/cli/cmd.h"))
    m = re.search(r'#define\s+CMD_COMMON_SHORTOPTS\s+"([^"]*)"', cmd_h)
    if m:
        common = m.group(1)
    for path in sorted(glob.glob(os.path.join(src, "harness/cli/*.c"))):
        text = read(path)
        for m in re.finditer(r'\{\s*"([a-z][a-z0-9-]*)",\s*'
                             r'(?:no|required|optional)_argument', text):
            longs.add(m.group(1))
        for m in re.finditer(r'getopt(?:_long)?\(\s*argc,\s*argv,\s*'
                             r'((?:"[^"]*"|CMD_COMMON_SHORTOPTS|\s)+)', text):
            spec = m.group(1).replace("CMD_COMMON_SHORTOPTS",
                                      '"%s"' % common)
            for letters in re.findall(r'"([^"]*)"', spec):
                for ch in letters:
                    if ch.isalnum():
                        shorts.add(ch)
        # main.c's own: strcmp(argv[i], "--version") and the like
        for m in re.finditer(r'strcmp\([^,]*,\s*"--([a-z][a-z-]*)"\)', text):
            longs.add(m.group(1))
        for m in re.finditer(r'strcmp\([^,]*,\s*"-([a-zA-Z])"\)', text):
            shorts.add(m.group(1))
    return longs, shorts


def config_keys(jankgate):
    out = subprocess.run([jankgate, "help", "config"], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        problem("'%s help config' exited %d: %s" % (jankgate, out.returncode,
                                                   out.stderr.strip()))
        return []
    return re.findall(r"^  ([a-z_][a-z0-9_.]*)$", out.stdout, re.M)


def commands(src):
    text = read(os.path.join(src, "harness/cli/commands.c"))
    table = text[text.index("commands[] = {"):]
    table = table[:table.index("};")]
    return set(re.findall(r"&cmd_([a-z]+)", table))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    args = ap.parse_args()
    src = args.src
    build = args.build if os.path.isabs(args.build) else \
        os.path.join(src, args.build)

    man_path = os.path.join(src, "harness/cli/jankgate.1")
    man = read(man_path)
    built = os.path.join(build, "jankgate.1")
    if not os.path.exists(built):
        problem("%s is missing: build first (make build)" % built)
    elif read(built) != man:
        problem("harness/cli/jankgate.1 differs from the page the build "
                "generates from config_keys.c: cp %s harness/cli/jankgate.1"
                % built)
    plain = roff_plain(man)

    keys = config_keys(os.path.join(build, "jankgate"))
    if len(keys) < 40:
        problem("'jankgate help config' lists %d keys, fewer than 40"
                % len(keys))
    for k in keys:
        if ".TP\n.B %s\n" % k not in man:
            problem("jankgate.1 CONFIGURATION lacks the key %s" % k)

    longs, shorts = cli_options(src)
    if len(longs) < 20:
        problem("found only %d long options in harness/cli/*.c" % len(longs))
    for o in sorted(longs):
        if not re.search(r"(?<![\w-])--%s(?![\w-])" % re.escape(o), plain):
            problem("jankgate.1 never names the option --%s" % o)
    for o in sorted(shorts):
        if not re.search(r"(?<![\w-])-%s(?![\w-])" % re.escape(o), plain):
            problem("jankgate.1 never names the option -%s" % o)

    # What the Markdown documents name must exist.
    cmds = commands(src)
    objects = {k.split(".")[0] for k in keys if "." in k}
    # the keys the table refuses (secrets) are names too
    keys += re.findall(r'\{ "([a-z_.]+)", K_SECRET,',
                       read(os.path.join(src, "harness/model/config_keys.c")))
    files = {"html", "json", "txt", "md", "xml", "eml", "apk", "aab", "scn",
             "log", "1", "yml", "inc", "c", "h", "py", "sh"}
    docs = [os.path.join(src, "README.md")] + \
        sorted(glob.glob(os.path.join(src, "docs/*.md")))
    for path in docs:
        name = os.path.relpath(path, src)
        for code in re.findall(r"`([^`\n]+)`", read(path)):
            for k in re.findall(r"(?<![\w./-])([a-z_]+\.[a-z_]+)(?![\w(/-])",
                                code):
                if k.split(".")[0] in objects and k not in keys and \
                        k.split(".")[1] not in files:
                    problem("%s names `%s`, which is no key" % (name, k))
            for c in re.findall(r"^jankgate ([a-z]+)\b", code):
                if c not in cmds:
                    problem("%s names `jankgate %s`, which is no command"
                            % (name, c))
            if code.startswith("jankgate "):
                for o in re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", code):
                    if o not in longs:
                        problem("%s names --%s, which no command takes"
                                % (name, o))

    # Every relative link of the Markdown documents leads to a file.
    for path in docs + [os.path.join(src, "tests/e2e/FORMAT.md")]:
        if not os.path.exists(path):
            continue
        for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", read(path)):
            if re.match(r"[a-z]+:", target):
                continue
            if not os.path.exists(os.path.join(os.path.dirname(path),
                                               target)):
                problem("%s links to %s, which does not exist"
                        % (os.path.relpath(path, src), target))

    # The exit statuses README lists are the man page's.
    readme = read(os.path.join(src, "README.md"))
    sec = man[man.index(".SH EXIT STATUS"):]
    sec = sec[:sec.index("\n.SH ", 1)]
    man_codes = set(re.findall(r"^\.TP\n\.B (\d+)$", sec, re.M))
    readme_codes = set(re.findall(r"^\| (\d) \|", readme, re.M))
    if not man_codes or man_codes != readme_codes:
        problem("README.md's exit statuses %s are not the man page's %s"
                % (sorted(readme_codes), sorted(man_codes)))

    # Every document is reachable from README (through the Markdown
    # documents it links) or named in the man page.
    reached, todo = set(), [os.path.join(src, "README.md")]
    while todo:
        path = os.path.normpath(todo.pop())
        if path in reached or not os.path.isfile(path):
            continue
        reached.add(path)
        if path.endswith(".md"):
            for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)",
                                     read(path)):
                if not re.match(r"[a-z]+:", target):
                    todo.append(os.path.join(os.path.dirname(path),
                                             target))
    for path in sorted(glob.glob(os.path.join(src, "docs/**/*"),
                                 recursive=True)) + \
            [os.path.join(src, p) for p in ("NEWS", "tests/e2e/FORMAT.md")]:
        if os.path.isdir(path):
            continue
        rel = os.path.relpath(path, src)
        if not os.path.exists(path):
            problem("%s is missing" % rel)
        elif os.path.normpath(path) not in reached and rel not in plain:
            problem("%s is reachable neither from README.md's links nor "
                    "from the man page" % rel)

    for p in problems:
        print("check-docs: %s" % p)
    print("check-docs: %d keys, %d long and %d short options, %d commands; "
          "%d problems" % (len(keys), len(longs), len(shorts), len(cmds),
                           len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
