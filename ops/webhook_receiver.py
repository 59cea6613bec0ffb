"""A demo webhook receiver on 127.0.0.1 that verifies each delivery and prints it.

    python -m ops.webhook_receiver --port 9000 --secret whsec_...

The service must run with SVC_HOOKS_ALLOW_LOCAL=1 to send to it (http and loopback).
"""

from __future__ import annotations

import trio

from svc.testing.hooks import Received, Receiver


def main() -> None:
    import argparse
    import time

    ap = argparse.ArgumentParser(prog="python -m ops.webhook_receiver", description="a verifying webhook receiver")
    ap.add_argument("--port", type=int, default=9000)
    ap.add_argument("--secret", required=True)
    args = ap.parse_args()

    async def serve() -> None:
        def answer(n: int, got: Received) -> int:
            body = got.body
            print(
                f"{body['type']:18} {body['id']}  match {body['data'].get('match')}  test={body.get('test', False)}",
                flush=True,
            )
            return 200

        receiver = Receiver(args.secret, time.time, answer)
        async with trio.open_nursery() as nursery:
            await nursery.start(receiver.serve, args.port)
            print(f"receiving on {receiver.url}", flush=True)

    trio.run(serve)


if __name__ == "__main__":
    main()
