"""What the app needs from the process and the machine, for every part of it.

``paths`` (where config, state and cache live), ``locks`` (one process drives
a task at a time), ``faults`` (crash points for the kill-and-resume tests) and
``secret_cache`` (secrets read in this process, for tools and redaction).
"""
