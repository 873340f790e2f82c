#!/usr/bin/env bash
# Prints one line per commit since the given tag: hash, subject, author.
set -euo pipefail
since="${1:?usage: collect_commits.sh TAG}"
git log --no-merges --format='%h%x09%s%x09%an' "${since}..HEAD"
