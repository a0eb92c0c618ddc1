#!/bin/sh
# A list shared by hosts through a PostgreSQL store's jobs table
# (build/tests/test_jobs), against a throwaway server as tests/store.sh
# starts one. TAP (under prove).
cd "$(dirname "$0")/.." || exit 1
exec sh tests/store.sh build/tests/test_jobs
