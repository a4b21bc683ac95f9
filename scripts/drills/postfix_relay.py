"""Debian's postfix as a private relay for the mail drill: its own instance under
.drills/postfix/ (config, queue, data and mailbox there; the system's /etc/postfix untouched),
listening on one loopback port, delivering every message for example.com to one Maildir and
relaying nothing anywhere else (no relayhost, `reject_unauth_destination`, and an `error`
transport for any other domain). Installed with apt-get when missing (as root).
"""
import email
import email.policy
import os
import pwd
import shutil
import subprocess

import support

BASE = os.path.join(support.OUT, "postfix")
CONFIG, QUEUE, DATA, MAIL = (os.path.join(BASE, part) for part in ("conf", "queue", "data", "mail"))
MAILDIR = os.path.join(MAIL, "maildir")
DOMAIN = "example.com"

MAIN_CF = """compatibility_level = 3.6
queue_directory = {queue}
data_directory = {data}
mail_owner = postfix
setgid_group = postdrop
myhostname = relay.drill.localhost
mydomain = drill.localhost
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
default_transport = error:the drill relay delivers nothing off this machine
relay_transport = error:the drill relay delivers nothing off this machine
smtpd_relay_restrictions = reject_unauth_destination
virtual_mailbox_domains = {domain}
virtual_mailbox_base = {mail}
virtual_mailbox_maps = regexp:{conf}/mailbox.regexp
virtual_uid_maps = static:{uid}
virtual_gid_maps = static:{gid}
virtual_minimum_uid = 100
smtputf8_enable = yes
alias_maps =
alias_database =
maillog_file_prefixes = {base}
maillog_file = {base}/maillog
"""

# smtpd on the drill's port, and the internal services delivery needs; nothing else listens.
MASTER_CF = """127.0.0.1:{port} inet n - n - - smtpd
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
virtual unix - n n - - virtual
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
"""


def ensure_installed():
    """postfix from Debian, without a system configuration (debconf: No configuration)."""
    if shutil.which("postfix") or os.path.exists("/usr/sbin/postfix"):
        return
    if os.geteuid() != 0:
        raise RuntimeError("postfix is not installed: run as root, or apt-get install postfix")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["debconf-set-selections"], input="postfix postfix/main_mailer_type select No configuration\n",
                   text=True, check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "postfix"], env=env, check=True,
                   stdout=subprocess.DEVNULL)


class Relay:
    def __init__(self, port):
        ensure_installed()
        self.port = port
        shutil.rmtree(BASE, ignore_errors=True)
        for directory in (CONFIG, QUEUE, DATA, MAIL):
            os.makedirs(directory)
        nobody = pwd.getpwnam("nobody")
        os.chown(DATA, pwd.getpwnam("postfix").pw_uid, -1)
        os.chown(MAIL, nobody.pw_uid, nobody.pw_gid)
        with open(os.path.join(CONFIG, "main.cf"), "w") as f:
            f.write(MAIN_CF.format(queue=QUEUE, data=DATA, domain=DOMAIN, mail=MAIL, conf=CONFIG, uid=nobody.pw_uid,
                                   gid=nobody.pw_gid, base=BASE))
        with open(os.path.join(CONFIG, "master.cf"), "w") as f:
            f.write(MASTER_CF.format(port=port))
        with open(os.path.join(CONFIG, "mailbox.regexp"), "w") as f:
            f.write("/./ maildir/\n")

    def postfix(self, command):
        """`postfix -c CONFIG start|stop|status`; its exit status (it reports to the maillog)."""
        return subprocess.run(["postfix", "-c", CONFIG, command], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode

    def start(self):
        if self.postfix("start") != 0:
            raise RuntimeError(f"postfix did not start, see {BASE}/maillog")

    def stop(self):
        self.postfix("stop")

    def delivered(self):
        """Every message in the Maildir (in no order), read as a mail reader would: its
        Message-ID, its To and its text part, decoded."""
        messages = []
        for folder in ("new", "cur"):
            path = os.path.join(MAILDIR, folder)
            for name in os.listdir(path) if os.path.isdir(path) else []:
                with open(os.path.join(path, name), "rb") as f:
                    message = email.message_from_binary_file(f, policy=email.policy.default)
                text = message.get_body(preferencelist=("plain",))
                messages.append({"id": message["Message-ID"], "to": message["To"],
                                 "text": text.get_content() if text is not None else ""})
        return messages
