"""Helpers for tests, like trio.testing: never imported by the service itself.

live    running_app: the whole app with chosen components and an httpx client that reads
        streams as they come (StreamingASGITransport); needs the test extra (httpx, httpx-sse),
        which the installed service does not: the other modules need only the service's own
hooks   a reference webhook receiver, an SMTP sink, and SchedulerWatch (wait until the
        webhook scheduler has nothing left to do before moving the mock clock)
"""
