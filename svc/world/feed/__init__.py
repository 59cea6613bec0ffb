"""The live simulator: plays the generated world forward in real time (or faster), rally by
rally, draws the editions that start, and reports every change through svc.changelog.

feed      the component: one leader by advisory lock, catch-up, steps, corrections
editions  the calendar of the world as the feed needs it: future draws and timetables
play      in-play pieces: the state of a match, its rallies, slips
publish   a change of a match, shaped and written to the change log
"""
