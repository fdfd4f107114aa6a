# SPDX-License-Identifier: MIT
# Sphinx configuration: the guide's sources are in docs/.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs", "_ext"))
project = "Linux 6.10 user-space interfaces: a tested guide"
author = "the trace-mmap-guide authors"
copyright = "2026, " + author

# srcref: the :src: (kernel source) and :test: (project test) evidence roles.
extensions = ["sphinx.ext.graphviz", "sphinx.ext.todo", "srcref", "readersteps"]
graphviz_output_format = "svg"
master_doc = "index"
exclude_patterns = ["_ext"]
nitpicky = True
highlight_language = "c"
primary_domain = "c"
html_theme = "alabaster"
html_theme_options = {"description": "mmap of the tracefs ring buffer, mseal, Landlock IOCTL, allocation profiling"}
html_static_path = []
