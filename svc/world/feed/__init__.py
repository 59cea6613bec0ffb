"""The live simulator: plays the generated world forward in real time (or faster), rally by
rally, draws the editions that start, and reports every change through svc.changelog.

feed       the component (Trio): one leader by advisory lock, catch-up, steps; a match's rows read
simulate   what a step does to a match, without I/O: rallies, result, next round, slips
decisions  those decisions as plain values
persist    the decisions written, one transaction each (database side: a Tx)
publish    a change of a match, shaped and written to the change log (database side)
editions   the calendar of the world as the feed needs it: future draws and timetables
play       in-play pieces: the state of a match, its rallies, prices, slips
"""
