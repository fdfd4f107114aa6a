# SPDX-License-Identifier: MIT
"""Diagrams drawn from what the guest recorded.

``.. reader-steps:: ../transcripts/rb-reader.txt`` reads a transcript that
ran ``rb_peek steps`` (``make transcripts`` records it in the guest) and draws
the reader sub-buffer after each ``get``: the meta-page's counters, the
sub-buffer's commit word, and what the call did (swap, no swap, nothing),
worked out by comparing each state with the one before; a loss is read
from the sub-buffer's flags, which every 6.10+ kernel sets, not from
``reader.lost_events``, which only the project's patch fills in. The commands between
two calls label the arrows.

Options: ``:session: N`` picks the Nth ``rb_peek steps`` of the transcript
(default 1); ``:caption:`` as for ``graphviz``.

The picture is therefore evidence: ``make check`` re-records the transcript
and compares it (tests/check-transcripts.sh), and ``make html`` redraws the
picture from it. A transcript this cannot read fails the build.
"""
import html
import re

from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.ext.graphviz import Graphviz

META_RE = re.compile(
    r"^  meta: reader\.id (\d+) reader\.read (\d+) reader\.lost_events (\d+) "
    r"entries (\d+) overrun (\d+) read (\d+)$")
SUBBUF_RE = re.compile(
    r"^  sub-buffer (\d+): commit word (0x[0-9a-f]+): (\d+) bytes of data(?:, (.*))?$")
IOCTL_RE = re.compile(r"^  ioctl: (\S+)$")
STEP_RE = re.compile(r"^> (\S+)(?: (.*))?$")
SESSION_RE = re.compile(r"^\$ .*rb_peek steps")
META_FIELDS = ("id", "read", "lost", "entries", "overrun", "nread")


def sessions(lines):
    """Split a transcript into the steps of each rb_peek steps run.

    Returns a list of sessions; a session is a list of steps, each a dict
    with the command, its argument text, and the state printed after it
    (meta, subbuf, ioctl), if any.
    """
    runs, steps = [], None
    for n, line in enumerate(lines, 1):
        if SESSION_RE.match(line):
            steps = []
            runs.append(steps)
            continue
        if line.startswith("$ "):
            steps = None
            continue
        if steps is None:
            continue
        m = STEP_RE.match(line)
        if m:
            steps.append({"cmd": m.group(1), "arg": m.group(2) or "", "line": n})
            continue
        if not steps:
            raise ValueError("line %d: output before the first step: %r" % (n, line))
        step = steps[-1]
        if META_RE.match(line):
            step["meta"] = dict(zip(META_FIELDS, map(int, META_RE.match(line).groups())))
        elif SUBBUF_RE.match(line):
            sid, word, size, flags = SUBBUF_RE.match(line).groups()
            step["subbuf"] = {"id": int(sid), "word": word, "size": int(size),
                              "flags": flags or ""}
        elif IOCTL_RE.match(line):
            step["ioctl"] = IOCTL_RE.match(line).group(1)
        else:
            raise ValueError("line %d: not a step's output: %r" % (n, line))
    return runs


def verdict(before, after, ioctl):
    """What a GET_READER did, from the states before and after it."""
    if ioctl:
        same = before["meta"] == after["meta"]
        return "%s%s" % (ioctl, ", nothing changed" if same else ", state changed")
    b, a = before["meta"], after["meta"]
    if a["id"] != b["id"]:
        text = "swap: ID %d out, ID %d in" % (b["id"], a["id"])
        flags = after["subbuf"]["flags"]
        if "MISSED_EVENTS" in flags:
            count = re.search(r"\((\d+) missed\)", flags)
            text += ", flagged: %s" % ("%s missed" % count.group(1) if count
                                      else "events missed, count not stored")
        return text
    if a["read"] != b["read"]:
        grew = after["subbuf"]["size"] - before["subbuf"]["size"]
        text = "no swap: ID %d had unread data, marked read" % a["id"]
        if grew > 0:
            text += " (the writer had added %d bytes)" % grew
        return text
    return "no swap: nothing new"


def cell(text, bold=False):
    text = html.escape(str(text))
    return "<TD>%s</TD>" % ("<B>%s</B>" % text if bold else text)


def label(title, state):
    m, s = state["meta"], state["subbuf"]
    rows = [
        '<TR><TD COLSPAN="2" BGCOLOR="#dde8f5">%s</TD></TR>' % html.escape(title),
        "<TR>%s%s</TR>" % (cell("reader.id"), cell(m["id"], True)),
        "<TR>%s%s</TR>" % (cell("reader.read"), cell(m["read"])),
        "<TR>%s%s</TR>" % (cell("commit (data bytes)"), cell(s["size"])),
        "<TR>%s%s</TR>" % (cell("entries / read / overrun"),
                           cell("%d / %d / %d" % (m["entries"], m["nread"], m["overrun"]))),
        "<TR>%s%s</TR>" % (cell("reader.lost_events"), cell(m["lost"])),
    ]
    if s["flags"]:
        rows.append('<TR><TD COLSPAN="2">%s</TD></TR>' % html.escape(s["flags"]))
    return '<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0">%s</TABLE>>' % "".join(rows)


def dot(steps):
    """The graphviz source for one session's steps."""
    state, pending, nodes, edges, prev = None, [], [], [], None
    calls = 0
    for step in steps:
        if "meta" in step and "subbuf" not in step:
            raise ValueError("line %d: meta-page without its sub-buffer line" % step["line"])
        if step["cmd"] == "write":
            pending.append("write " + step["arg"].split(" ", 1)[0])
            continue
        if step["cmd"] == "show":
            if "meta" not in step:
                raise ValueError("line %d: show printed no state" % step["line"])
            if state is None:
                state = step
                nodes.append("s0 [label=%s];" % label("mapped, before any call", step))
                prev = "s0"
            elif step["meta"] != state["meta"]:
                raise ValueError("line %d: the meta-page changed without a call" % step["line"])
            else:
                pending.append("show (unchanged)")
            continue
        if step["cmd"] not in ("get", "get-blocking"):
            raise ValueError("line %d: unknown step %r" % (step["line"], step["cmd"]))
        if state is None or "meta" not in step:
            raise ValueError("line %d: a call with no state before or after it" % step["line"])
        calls += 1
        name = "s%d" % calls
        title = "%s %d: %s" % (step["cmd"], calls, verdict(state, step, step.get("ioctl")))
        nodes.append("%s [label=%s];" % (name, label(title, step)))
        edges.append('%s -> %s [label="%s"];' % (prev, name, "\\n".join(pending)))
        state, prev, pending = step, name, []
    if not calls:
        raise ValueError("no get in the session")
    return "\n".join(["digraph steps {",
                      '  node [shape=plaintext, fontname="sans-serif", fontsize=10];',
                      '  edge [fontname="sans-serif", fontsize=9];']
                     + ["  " + x for x in nodes + edges] + ["}"])


class ReaderSteps(Graphviz):
    option_spec = dict(Graphviz.option_spec, session=directives.positive_int)

    def run(self):
        rel, path = self.env.relfn2path(self.arguments[0])
        self.env.note_dependency(rel)
        session = self.options.pop("session", 1)
        try:
            with open(path, encoding="utf-8") as f:
                runs = sessions(f.read().splitlines())
            if session > len(runs):
                raise ValueError("no rb_peek steps run number %d (%d in the file)"
                                 % (session, len(runs)))
            code = dot(runs[session - 1])
        except (OSError, ValueError) as e:
            raise ExtensionError("reader-steps: %s: %s" % (rel, e)) from e
        self.arguments = []
        self.content = StringList(code.splitlines(), source=rel)
        return super().run()


def setup(app):
    app.add_directive("reader-steps", ReaderSteps)
    return {"parallel_read_safe": True}
