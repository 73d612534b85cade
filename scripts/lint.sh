#!/usr/bin/env bash
# Style checks that need no build: clang-format on every C++ file of ours, shellcheck on every
# script. (clang-tidy runs by hand: `run-clang-tidy -p build/dev src/`; it is too slow for a
# 2-core CI on every run.)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
mapfile -t cxx < <(find src tests/unit tests/integration tests/fakes tests/fuzz \( -name '*.cpp' -o -name '*.hpp' \) -not -path '*/fixtures/*' | sort)
if ! clang-format --dry-run --Werror "${cxx[@]}"; then
  echo "lint: clang-format would change the files above; run: clang-format -i <file>"
  status=1
fi
mapfile -t scripts < <(find scripts perf .ci -type f \( -name '*.sh' -o -name run \) | sort)
if ! shellcheck "${scripts[@]}"; then
  echo "lint: shellcheck found problems"
  status=1
fi
echo "lint: ${#cxx[@]} C++ files, ${#scripts[@]} scripts checked"
exit $status
