"""The command line of every subcommand: -h is --help, a stray word is an error
(not a scheduler started with the default profile because `--config` was
forgotten), and a switch given `=false` is off.
"""
import json
import os
import subprocess
import unittest

TROUPE = os.environ.get("TROUPE", "troupe")
COMMANDS = ("scheduler", "apiserver", "demo", "bench", "replay", "bench-deschedule", "bench-apiserver")


def run(*args, timeout=120):
    return subprocess.run([TROUPE, *args], capture_output=True, text=True, timeout=timeout)


class CommandLineTest(unittest.TestCase):
    def test_dash_h_prints_the_usage(self):
        for command in COMMANDS:
            with self.subTest(command=command):
                done = run(command, "-h")
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertIn("Usage: troupe " + command + " [flags]", done.stdout)

    def test_a_stray_argument_is_refused(self):
        for command in COMMANDS:
            with self.subTest(command=command):
                done = run(command, "config.yaml")
                self.assertEqual(done.returncode, 2, done.stdout)
                self.assertIn("unexpected argument 'config.yaml'", done.stderr)

    def test_a_switch_takes_true_or_false(self):
        small = ("bench", "--nodes", "20", "--pods", "10", "--mix", "cpu")
        as_json = run(*small, "--json=true")
        self.assertEqual(as_json.returncode, 0, as_json.stderr)
        self.assertEqual(json.loads(as_json.stdout.splitlines()[0])["bound"], 10)
        as_table = run(*small, "--json", "--json=false")  # the last one wins
        self.assertEqual(as_table.returncode, 0, as_table.stderr)
        self.assertIn("pods/s", as_table.stdout.splitlines()[0])
        bad = run(*small, "--json=maybe")
        self.assertEqual(bad.returncode, 2, bad.stdout)
        self.assertIn("flag --json is true or false, got 'maybe'", bad.stderr)


if __name__ == "__main__":
    unittest.main()
