#!/usr/bin/python3
"""smtpd.py: the loopback SMTP server that test_mail.c sends to.

A real SMTP implementation (Debian's python3-aiosmtpd) with knobs for the
cases the mail module must handle.  It listens on 127.0.0.1, on a port the
kernel picks, and prints that port on stdout once it accepts connections.
Each message is stored byte for byte as DIR/msg-N.eml (what arrived after
SMTP's dot-unstuffing, i.e. what the client meant to send), and every
command of interest is appended to DIR/log, one line each:

    connect
    ehlo NAME
    auth MECHANISM LOGIN ok|bad
    mail ADDRESS tls=0|1 auth=LOGIN|-
    rcpt ADDRESS CODE
    data msg-N.eml RCPT...

Options:
    --dir DIR              where the log and the messages go (required)
    --starttls CERT KEY    offer STARTTLS with this certificate
    --implicit-tls CERT KEY  speak TLS from the first byte (smtps)
    --auth USER:PASS       require AUTH (PLAIN or LOGIN) with these
    --tempfail N           answer 451 to the first N RCPT commands
    --reject               answer 550 to every RCPT
    --leaky                quote the login and password in a 535 refusal
    --maildir DIR          also deliver each message into the Maildir DIR
                           (new/, as a mail reader would find it)

Run with Debian's /usr/bin/python3: another python3 on PATH may lack
aiosmtpd.  It runs until killed.
"""
import argparse
import asyncio
import mailbox
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Recorder:
    def __init__(self, args):
        self.args = args
        self.tempfail = args.tempfail
        self.count = 0

    def log(self, *words):
        with open(os.path.join(self.args.dir, "log"), "a") as f:
            f.write(" ".join(words) + "\n")

    def authenticate(self, server, session, envelope, mechanism, data):
        ok = (isinstance(data, LoginPassword) and
              (data.login + b":" + data.password).decode(
                  errors="replace") == self.args.auth)
        login = data.login.decode(errors="replace") if data else "?"
        self.log("auth", mechanism, login, "ok" if ok else "bad")
        if not ok and self.args.leaky and isinstance(data, LoginPassword):
            # A careless server that quotes what it was sent.
            said = (data.login + b":" + data.password).decode("latin-1")
            return AuthResult(success=False, handled=False,
                              message="535 5.7.8 refused " + said)
        return AuthResult(success=ok, handled=False, auth_data=data)

    async def handle_EHLO(self, server, session, envelope, hostname,
                          responses):
        session.host_name = hostname
        self.log("ehlo", hostname)
        return responses

    async def handle_MAIL(self, server, session, envelope, address,
                          options):
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        tls = server.transport.get_extra_info("ssl_object") is not None
        login = session.login_data.decode() if session.login_data else "-"
        self.log("mail", address, "tls=%d" % tls, "auth=" + login)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address,
                          options):
        if self.args.reject:
            self.log("rcpt", address, "550")
            return "550 5.1.1 no such mailbox here"
        if self.tempfail > 0:
            self.tempfail -= 1
            self.log("rcpt", address, "451")
            return "451 4.7.1 greylisted, try again later"
        envelope.rcpt_tos.append(address)
        self.log("rcpt", address, "250")
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        name = "msg-%d.eml" % self.count
        with open(os.path.join(self.args.dir, name), "wb") as f:
            f.write(envelope.original_content)
        if self.args.maildir:
            mailbox.Maildir(self.args.maildir, create=True).add(
                envelope.original_content)
        self.log("data", name, *envelope.rcpt_tos)
        return "250 OK queued as " + name


class LoggingSMTP(SMTP):
    def __init__(self, recorder, **kw):
        super().__init__(recorder, **kw)
        self.recorder = recorder

    def connection_made(self, transport):
        if self.transport is None:      # not the STARTTLS re-entry
            self.recorder.log("connect")
        super().connection_made(transport)


def tls_context(cert, key):
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    return ctx


async def serve(args):
    rec = Recorder(args)
    kw = {"hostname": "jg-test-smtpd", "auth_require_tls": False}
    if args.starttls:
        kw["tls_context"] = tls_context(*args.starttls)
    if args.auth:
        kw["auth_required"] = True
        kw["authenticator"] = rec.authenticate
    implicit = tls_context(*args.implicit_tls) if args.implicit_tls else None
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: LoggingSMTP(rec, **kw),
                                      "127.0.0.1", 0, ssl=implicit)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--implicit-tls", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--auth")
    p.add_argument("--tempfail", type=int, default=0)
    p.add_argument("--reject", action="store_true")
    p.add_argument("--leaky", action="store_true")
    p.add_argument("--maildir")
    asyncio.run(serve(p.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
