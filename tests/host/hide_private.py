#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copy the library's headers with the fields of its private structs renamed.

    hide_private.py SRC_DIR OUT_DIR

A struct is private when the comment right above its definition says "The
fields are private". Each field of such a struct (each declarator of its
top-level declarations, a nested struct's name included) becomes
NAME__private in the copies in OUT_DIR. A program that compiles against
SRC_DIR but not against OUT_DIR reads or writes a private field.
Prints the structs and their field count, one line each.
"""
import os
import re
import sys

STRUCT = re.compile(r'/\*(?:(?!\*/).)*The fields are private(?:(?!\*/).)*\*/\s*struct\s+(\w+)\s*\{', re.S)


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', lambda m: ' ' * len(m.group(0)), text, flags=re.S)


def declarators(stmt):
    """The names a top-level declaration (comments blanked) declares."""
    # Drop nested bodies: struct { ... } name; keeps "struct  name".
    flat, depth = '', 0
    for ch in stmt:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        elif depth == 0:
            flat += ch
    flat = re.sub(r'\[[^]]*\]|:\s*\d+|\([^()]*\)\s*\(', ' ', flat)
    names = []
    for part in flat.split(','):
        ids = re.findall(r'[A-Za-z_]\w*', part)
        if ids:
            names.append(ids[-1])
    return names


def hide(text, path):
    out, report, pos = [], [], 0
    for m in STRUCT.finditer(text):
        start = m.end()
        clean = strip_comments(text)
        depth, i, stmt_start, names = 1, start, start, []
        while depth:
            ch = clean[i]
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            elif ch == ';' and depth == 1:
                names += declarators(clean[stmt_start:i])
                stmt_start = i + 1
            i += 1
        body = text[start:i - 1]
        cbody = clean[start:i - 1]
        # Rename outside comments only, at depth 1 declarators.
        for name in set(names):
            pat = re.compile(r'\b%s\b' % re.escape(name))
            new, last = '', 0
            for mm in pat.finditer(cbody):
                new += body[last:mm.start()] + name + '__private'
                last = mm.end()
            body, cbody = new + body[last:], pat.sub(name + '__private', cbody)
        out.append(text[pos:start] + body)
        pos = i - 1
        report.append('%s: struct %s: %d fields' % (os.path.basename(path), m.group(1), len(set(names))))
    out.append(text[pos:])
    return ''.join(out), report


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: hide_private.py SRC_DIR OUT_DIR')
    src, dst = sys.argv[1:]
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith('.h'):
            continue
        with open(os.path.join(src, name)) as f:
            text, report = hide(f.read(), name)
        with open(os.path.join(dst, name), 'w') as f:
            f.write(text)
        for line in report:
            print(line)


if __name__ == '__main__':
    main()
