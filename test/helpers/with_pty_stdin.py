# Runs a command with a pseudo-terminal as its stdin (stdout and stderr stay
# pipes), types the given input into the terminal, then Ctrl-D at the start of
# a line (the end of input), and prints {code, stdout, stderr} as JSON.
#   python3 with_pty_stdin.py INPUT COMMAND...
import json, os, pty, subprocess, sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[2:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(slave)
os.write(master, sys.argv[1].encode() + b"\x04")
out, err = child.communicate(timeout=120)
os.close(master)
print(json.dumps({"code": child.returncode, "stdout": out.decode(), "stderr": err.decode()}))
