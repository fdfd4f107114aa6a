# SPDX-License-Identifier: MIT
"""Evidence roles for the guide, and the check that resolves them.

:src:`PATH` or :src:`PATH:SYMBOL` (SYMBOL ending in ``()`` is a function or a
function-like macro) names code in the kernel release the guide was checked
against, and renders as a link to that file in a public source browser.
An explicit title is allowed: :src:`title <PATH:SYMBOL>`.

:test:`PATH:NAME` names a test of this project (NAME is a test name, as in
``PASS: suite/NAME``, or a function of a C test) and renders as a link to a
copy of the file in the built guide.

The roles never read the kernel tree, so the guide builds without it. The
check, ``python3 docs/_ext/srcref.py check TREE REPO FILE...``, resolves
every reference: the file exists in TREE (or, for :test:, in REPO) and the
symbol or test name is found in it. tests/host/source-refs.test.sh runs it.
"""
import os
import re
import sys

KERNEL_VERSION = "6.12.118"
BROWSER = "https://elixir.bootlin.com/linux/v%s/source/" % KERNEL_VERSION

# A role in reStructuredText source: :src:`...` or :test:`...` on one line.
ROLE_RE = re.compile(r":(src|test):`([^`]*)`")
ROLE_START_RE = re.compile(r":(src|test):`")
LITERAL_RE = re.compile(r"``.*?``")
TARGET_RE = re.compile(r"^(?:(?P<title>[^<]*\S)\s*<(?P<inner>[^<>]+)>|(?P<plain>[^<>]+))$")
PATH_RE = re.compile(r"^[A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)*$")
SYMBOL_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_ ./-]*(?:\(\))?$")


def parse(text):
    """Split a role's text into (title or None, path, symbol or None)."""
    m = TARGET_RE.match(text.strip())
    if not m:
        raise ValueError("cannot parse %r: use PATH, PATH:SYMBOL or 'title <PATH:SYMBOL>'" % text)
    target = m.group("inner") or m.group("plain")
    path, _, symbol = target.strip().partition(":")
    if not PATH_RE.match(path) or ".." in path.split("/"):
        raise ValueError("bad path %r in %r" % (path, text))
    if symbol and not SYMBOL_RE.match(symbol):
        raise ValueError("bad symbol %r in %r" % (symbol, text))
    return m.group("title"), path, symbol or None


def references(rst_text):
    """Yield (line number, role, text) for every role in a document; a role
    that does not close on its line raises ValueError."""
    for n, line in enumerate(rst_text.splitlines(), 1):
        line = LITERAL_RE.sub("", line)  # a role quoted in ``...`` is text
        if len(ROLE_START_RE.findall(line)) != len(ROLE_RE.findall(line)):
            raise ValueError("line %d: a :src: or :test: role must close on its line" % n)
        for m in ROLE_RE.finditer(line):
            yield n, m.group(1), m.group(2)


def find_symbol(path, symbol):
    """True if the file defines (NAME()) or mentions (NAME) the symbol."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if symbol.endswith("()"):
        name = re.escape(symbol[:-2])
        # A definition starts in column 0 and is not a prototype; a macro is
        # a #define; a system call is [COMPAT_]SYSCALL_DEFINEn(name, ...).
        definition = re.compile(
            r"^(?:#\s*define\s+%s\(|(?:COMPAT_)?SYSCALL_DEFINE\d\(%s\b|(?:[A-Za-z_][^;{}=]*?[\s*])?%s\s*\([^;]*$)" % (name, name, name),
            re.M)
        return bool(definition.search(text))
    return re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(symbol), text) is not None


def find_test(path, name):
    """True if the file names the test: a kselftest TEST(name) or
    TEST_F(fixture, name) in C (or in a patch adding C), a quoted "name"
    (a table of cases), or in a shell script the name as a word."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    n = re.escape(name)
    if re.search(r'TEST(?:_F)?\((?:\w+,\s*)?%s\)|"%s"' % (n, n), text):
        return True
    if path.endswith((".c", ".patch")):
        return False
    # "$1/name" names the test name in every case of a shell function.
    return re.search(r"(?<![\w-])%s(?![\w/-])" % n, text) is not None


def check(tree, repo, files):
    """Print PASS/FAIL lines, one per distinct reference; return failures."""
    seen, failed = {}, 0
    for rst in files:
        with open(rst, encoding="utf-8") as f:
            text = f.read()
        try:
            refs = list(references(text))
        except ValueError as e:
            print("FAIL: source-refs/syntax: %s: %s" % (rst, e))
            failed += 1
            continue
        for n, role, body in refs:
            where = "%s:%d" % (rst, n)
            try:
                _, path, symbol = parse(body)
            except ValueError as e:
                print("FAIL: source-refs/syntax: %s: %s" % (where, e))
                failed += 1
                continue
            key = (role, path, symbol)
            if key in seen:
                continue
            seen[key] = where
            base = tree if role == "src" else repo
            name = "%s/%s%s" % (role, path, ":" + symbol if symbol else "")
            full = os.path.join(base, path)
            if not os.path.isfile(full):
                print("FAIL: source-refs/%s: %s: no file %s in %s" % (name, where, path, base))
                failed += 1
            elif role == "test" and not symbol:
                print("FAIL: source-refs/%s: %s: a test reference names the test (PATH:NAME)" % (name, where))
                failed += 1
            elif role == "test" and not find_test(full, symbol):
                print("FAIL: source-refs/%s: %s: no test %s in %s" % (name, where, symbol, path))
                failed += 1
            elif role == "src" and symbol and not find_symbol(full, symbol):
                print("FAIL: source-refs/%s: %s: %s not found in %s" % (name, where, symbol, path))
                failed += 1
            else:
                print("PASS: source-refs/%s" % name)
    return failed


# --- Sphinx ---------------------------------------------------------------

def _role_error(inliner, lineno, rawtext, msg):
    err = inliner.reporter.error(msg, line=lineno)
    from docutils import nodes
    prb = inliner.problematic(rawtext, rawtext, err)
    return [prb], [err]


def src_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes
    try:
        title, path, symbol = parse(text)
    except ValueError as e:
        return _role_error(inliner, lineno, rawtext, str(e))
    label = title or ("%s: %s" % (path, symbol) if symbol else path)
    ref = nodes.reference(rawtext, "", refuri=BROWSER + path, classes=["srcref"])
    ref += nodes.literal(label, label) if not title else nodes.Text(label)
    return [ref], []


def test_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes
    from sphinx import addnodes
    try:
        title, path, symbol = parse(text)
    except ValueError as e:
        return _role_error(inliner, lineno, rawtext, str(e))
    if not symbol:
        return _role_error(inliner, lineno, rawtext, "a test reference names the test: PATH:NAME")
    env = inliner.document.settings.env
    suite = os.path.basename(path)
    if suite.endswith(".patch"):  # a selftest in a kernel patch: its number
        suite = "patch " + suite.split("-", 1)[0]
    for ext in (".test.sh", ".sh", ".c"):
        if suite.endswith(ext):
            suite = suite[: -len(ext)]
            break
    label = title or "%s/%s" % (suite, symbol)
    # A download reference copies the test file into the built guide; the
    # path is relative to the repository, one level above docs/.
    node = addnodes.download_reference(rawtext, "", refdoc=env.docname, refdomain="",
                                       reftype="download", refexplicit=True,
                                       refwarn=True, reftarget="/../" + path)
    node += nodes.literal(label, label, classes=["xref", "download"])
    return [node], []


def setup(app):
    app.add_role("src", src_role)
    app.add_role("test", test_role)
    # env_version: a change here re-reads every page (bump it with the roles).
    return {"version": "1", "env_version": 2, "parallel_read_safe": True, "parallel_write_safe": True}


def main(argv):
    if len(argv) < 5 or argv[1] != "check":
        sys.stderr.write("usage: srcref.py check TREE REPO FILE...\n")
        return 2
    tree, repo = argv[2], argv[3]
    if not os.path.isdir(tree):
        sys.stderr.write("srcref.py: no kernel tree at %s\n" % tree)
        return 2
    return 1 if check(tree, repo, argv[4:]) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
