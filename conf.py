# SPDX-License-Identifier: MIT
# Sphinx configuration: the guide's sources are in docs/.
project = "Linux 6.10 user-space interfaces: a tested guide"
author = "the trace-mmap-guide authors"
copyright = "2026, " + author

extensions = ["sphinx.ext.graphviz", "sphinx.ext.todo"]
graphviz_output_format = "svg"
master_doc = "index"
exclude_patterns = []
nitpicky = True
highlight_language = "c"
primary_domain = "c"
html_theme = "alabaster"
html_theme_options = {"description": "mmap of the tracefs ring buffer, mseal, Landlock IOCTL, allocation profiling"}
html_static_path = []
