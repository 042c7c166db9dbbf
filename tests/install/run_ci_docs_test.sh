#!/usr/bin/env bash
# tests/install/run_ci_docs_test.sh - the "softdoca in your CI" page
# (docs/ci.md) says what works:
#   - its Dockerfile and GitHub Actions blocks are the files docs/ci/Dockerfile
#     and docs/ci/github-workflow.yml;
#   - every Debian package they install is one softdoca's CI installs
#     (tools/test-packages.txt);
#   - where a Docker engine answers (`docker info`) and the debian:12 image
#     is here or can be pulled, the Dockerfile builds softdoca and the
#     example project of docs/ci/example/ and the image runs the project's
#     tests; elsewhere that check is reported as skipped.
# Prints "PASS name" / "FAIL name" / "SKIP name" lines (tests/run.sh counts
# them); exits 1 if any failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ci=$root/docs/ci
failures=0

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	failures=$((failures + 1))
}

# block INFO FILE: the first fenced block of FILE whose info string is INFO.
block() {
	awk -v info="$1" '
		!on && $0 == "```" info { on = 1; next }
		on && $0 == "```" { exit }
		on { print }' "$2"
}

check_blocks() {
	if diff -u "$ci/Dockerfile" <(block dockerfile "$root/docs/ci.md") >/dev/null; then
		pass "ci docs: the page's Dockerfile is docs/ci/Dockerfile"
	else
		fail "ci docs: the page's Dockerfile is docs/ci/Dockerfile"
		diff -u "$ci/Dockerfile" <(block dockerfile "$root/docs/ci.md") | sed 's/^/    | /' | head -20
	fi
	if diff -u "$ci/github-workflow.yml" <(block yaml "$root/docs/ci.md") >/dev/null; then
		pass "ci docs: the page's GitHub Actions job is docs/ci/github-workflow.yml"
	else
		fail "ci docs: the page's GitHub Actions job is docs/ci/github-workflow.yml"
	fi
}

check_packages() {
	local wanted missing=() p
	wanted=$(sed -n 's/.*apt-get install -y --no-install-recommends \(.*\)\( \\\)\{0,1\}$/\1/p; s/.*apt-get install -y \([a-z].*\)$/\1/p' \
		"$ci/Dockerfile" "$root/docs/ci.md" | tr ' ' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort -u)
	for p in $wanted; do
		grep -qx "$p" "$root/tools/test-packages.txt" || missing+=("$p")
	done
	if [ -z "$wanted" ]; then
		fail "ci docs: the Dockerfile names the Debian packages it installs"
	elif [ ${#missing[@]} -eq 0 ]; then
		pass "ci docs: every Debian package of the page is in tools/test-packages.txt ($(echo $wanted))"
	else
		fail "ci docs: every Debian package of the page is in tools/test-packages.txt (missing: ${missing[*]})"
	fi
}

# The Dockerfile, built and run for real: softdoca from this checkout, the example project.
check_docker() {
	local name="ci docs: docs/ci/Dockerfile builds softdoca and the example project, and the image passes its tests"
	local ctx tag rc=0
	if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
		echo "SKIP $name (no Docker engine here: docker info failed)"
		return
	fi
	# The base image must be here or reachable; a machine that cannot pull it cannot run the check.
	if ! docker image inspect debian:12 >/dev/null 2>&1 && ! docker pull -q debian:12 >/dev/null 2>&1; then
		echo "SKIP $name (the image debian:12 is neither here nor reachable)"
		return
	fi
	ctx=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-ci.XXXXXX")
	tag=softdoca-ci-check:$$
	cp -r "$ci/example/." "$ctx/"
	cp "$ci/Dockerfile" "$ctx/Dockerfile"
	mkdir "$ctx/softdoca"
	# This checkout, without build folders or git metadata.
	tar -C "$root" --exclude=./.git --exclude='./build*' --exclude=./_install -cf - . | tar -C "$ctx/softdoca" -xf -
	if docker build -q -t "$tag" "$ctx" >"$ctx.build.log" 2>&1 && docker run --rm "$tag" >"$ctx.run.log" 2>&1; then
		pass "$name"
	else
		rc=1
		fail "$name"
		tail -n 30 "$ctx.build.log" "$ctx.run.log" 2>/dev/null | sed 's/^/    | /'
	fi
	docker rmi -f "$tag" >/dev/null 2>&1
	rm -rf "$ctx" "$ctx.build.log" "$ctx.run.log"
	return $rc
}

check_blocks
check_packages
check_docker
[ "$failures" -eq 0 ]
