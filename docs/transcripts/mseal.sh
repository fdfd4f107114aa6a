# SPDX-License-Identifier: MIT
# The table of docs/mseal.rst: mseal_demo's output on the guest kernel.
mseal_demo
