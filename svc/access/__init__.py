"""Who may call: keys (only their hashes are stored), plans and their limits, and the one
statement that reads a key, checks its plan and counts the call (caller)."""
