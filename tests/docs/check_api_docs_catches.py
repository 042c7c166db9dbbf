#!/usr/bin/env python3
"""tests/docs/check_api_docs_catches.py CHECKER FIXTURE_DIR

Self-test of the documentation check: on a header with known gaps it must
fail and name exactly those gaps, so that a check which cannot fail would
be noticed.
"""
import subprocess
import sys

checker, fixture = sys.argv[1], sys.argv[2]
run = subprocess.run([sys.executable, checker, fixture], capture_output=True, text=True)
print(run.stdout, run.stderr)
expected = ['function doca_fixture_bare has no documentation block',
            'doca_fixture_no_errors returns doca_error_t but its block names no DOCA_ERROR_*',
            'member DOCA_FIXTURE_KIND_UNTOLD has no documentation',
            'opaque struct doca_fixture_hidden is documented nowhere',
            'typedef doca_fixture_cb_t has no documentation block',
            'doca_fixture_nofile.h: no /** @file */ block']
innocent = ['doca_fixture_good', 'doca_fixture_inline', 'DOCA_FIXTURE_KIND_A', 'DOCA_FIXTURE_KIND_B',
            'doca_fixture_told', 'enum doca_fixture_kind has']
fails = [line for line in run.stdout.splitlines() if line.startswith('FAIL')]
bad = 0
if run.returncode != 1:
    print('expected exit status 1, got %d' % run.returncode)
    bad += 1
for e in expected:
    if not any(e in f for f in fails):
        print('not reported: ' + e)
        bad += 1
for i in innocent:
    for f in fails:
        if i in f:
            print('reported although documented: ' + f)
            bad += 1
if len(fails) != len(expected):
    print('expected %d problems, got %d' % (len(expected), len(fails)))
    bad += 1
sys.exit(1 if bad else 0)
