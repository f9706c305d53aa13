# Sourced by the benchmark scripts: sets $bin to the webimage they measure. WEBIMAGE=path names a release
# binary to use; otherwise a release build of its own in .build-bench, made as users deploy it: no
# -enable-testing (unlike `make test`'s build) and the Swift runtime linked in (--static-swift-stdlib), which
# halves the process start (`webimage --version`: 12.8 → 6.9 ms of CPU, issue 33).
if [[ -n ${WEBIMAGE:-} ]]; then
    bin="$WEBIMAGE"
else
    bench_build_flags=(-c release --static-swift-stdlib --scratch-path .build-bench)
    nice -n 19 swift build "${bench_build_flags[@]}" --product webimage >&2
    bin="$(swift build "${bench_build_flags[@]}" --show-bin-path)/webimage"
fi
