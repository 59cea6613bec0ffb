"""svc: the read API of the badminton data service."""

API_VERSION = "1.45.20261010"  # interface.md, Versioning: the machine-readable version string
