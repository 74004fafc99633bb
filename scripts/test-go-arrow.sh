#!/usr/bin/env bash
# scripts/test-go-arrow.sh BUILDDIR REPORTSDIR: the Go Arrow bridge
# (bindings/go/arrowct, its own module so that the ctensor package depends on
# nothing) against arrow-go, pinned in its go.sum. Fills the module cache
# through the Go proxy (GOPROXY, https://proxy.golang.org by default), then
# runs the tests offline against the library in BUILDDIR with a JUnit report
# REPORTSDIR/go-arrow.xml.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:?usage: scripts/test-go-arrow.sh BUILDDIR REPORTSDIR}
reports=${2:?usage: scripts/test-go-arrow.sh BUILDDIR REPORTSDIR}
case $builddir in /*) ;; *) builddir=$root/$builddir ;; esac
case $reports in /*) ;; *) reports=$root/$reports ;; esac
mkdir -p "$reports"

export PKG_CONFIG_PATH=$builddir/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$builddir/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CGO_ENABLED=1 GOTOOLCHAIN=local GOFLAGS=-mod=readonly
# Without HOME go has no build cache and an empty GOPATH (as in scripts/test.sh).
[ "$(go env GOCACHE 2>/dev/null)" != off ] && [ -n "$(go env GOCACHE 2>/dev/null)" ] || export GOCACHE=$builddir/go-cache
[ -n "$(go env GOPATH 2>/dev/null)" ] || export GOPATH=$builddir/go-path
cd "$root/bindings/go/arrowct"
go mod download
go vet ./...
GOPROXY=off go test -count=1 -json ./... | python3 "$root/scripts/junit.py" go "$reports/go-arrow.xml"
