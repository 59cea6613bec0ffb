"""The owner's notice when an endpoint is paused: e-mailed through SVC_SMTP_URL
(smtp://host:port) when set, and always kept in webhook_notices (logged when not e-mailed).

smtplib is blocking; it runs in a worker thread with its own socket time-out.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
from email.message import EmailMessage
from urllib.parse import urlsplit

import attrs
import trio

from svc.core.db import Database
from svc.core.sqlfiles import Q
from svc_hooks.catchup import CATCH_UP_WINDOW

log = logging.getLogger("svc_hooks.notify")

DEFAULT_FROM = "webhooks@localhost"
SMTP_TIMEOUT_S = 20  # a mail server slower than this is down; the notice stays in the database


@attrs.frozen
class Mailer:
    host: str
    port: int
    sender: str = DEFAULT_FROM

    @classmethod
    def from_url(cls, url: str, sender: str = DEFAULT_FROM) -> Mailer | None:
        """The mailer for SVC_SMTP_URL (smtp://host:port); None when it is not set."""
        if not url:
            return None
        parts = urlsplit(url)
        if parts.scheme != "smtp" or not parts.hostname:
            log.error("SVC_SMTP_URL=%r is not smtp://host:port; notices are only logged", url)
            return None
        return cls(parts.hostname, parts.port or 25, sender)

    def _send(self, to: str, subject: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, to, subject
        msg.set_content(body)
        with smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT_S) as smtp:
            smtp.send_message(msg)

    async def send(self, to: str, subject: str, body: str) -> None:
        await trio.to_thread.run_sync(self._send, to, subject, body, abandon_on_cancel=True)


def paused_notice(endpoint_id: str, url: str, failures: int) -> tuple[str, str]:
    subject = f"Webhook endpoint {endpoint_id} paused after {failures} failed tries"
    body = (
        f"Your webhook endpoint {endpoint_id} ({url}) failed {failures} tries in a row and has been paused:\n"
        f"nothing more is sent to it. Its pending deliveries are kept.\n\n"
        f"Fix the receiver, then resume it:  python -m svc hooks resume {endpoint_id}\n"
        f"Pending deliveries continue from where they stopped, and the events written while it is paused\n"
        f"are delivered after them, in order, if they are at most {CATCH_UP_WINDOW.days} days old when you resume\n"
        f"(resume names the older ones, which are not sent).\n"
    )
    return subject, body


async def notify_paused(
    db: Database,
    mailer: Mailer | None,
    *,
    endpoint_id: str,
    account: str,
    url: str,
    email: str | None,
    failures: int,
    now: dt.datetime,
) -> None:
    subject, body = paused_notice(endpoint_id, url, failures)
    notice_id = await db.fetchval(
        Q.hooks.notice_insert,
        endpoint_id=endpoint_id,
        account=account,
        email=email,
        subject=subject,
        body=body,
        now=now,
    )
    if mailer is None or email is None:
        why = "no SMTP server (SVC_SMTP_URL)" if mailer is None else "no owner e-mail address"
        log.warning(
            "webhook endpoint %s of %s paused; not e-mailed (%s), notice %s kept", endpoint_id, account, why, notice_id
        )
        await db.execute(Q.hooks.notice_sent, id=notice_id, sent_at=None, error=why)
        return
    try:
        await mailer.send(email, subject, body)
    except (OSError, smtplib.SMTPException) as exc:
        log.warning(
            "webhook endpoint %s paused; e-mail to %s failed: %s (notice %s kept)", endpoint_id, email, exc, notice_id
        )
        await db.execute(Q.hooks.notice_sent, id=notice_id, sent_at=None, error=f"e-mail failed: {exc}")
        return
    await db.execute(Q.hooks.notice_sent, id=notice_id, sent_at=now, error=None)
