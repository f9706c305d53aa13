# The two entry points the README gives: `make demo` and `make test`. Each installs what it needs first.
SWIFT ?= swift

.PHONY: deps build test test-tsan demo bench docs clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The stress tests (StressTests: fork and SIGKILL, thousands of loads, a blocked cooperative pool) run in a
# process of their own after the rest, so that their CPU load never starves the timing-sensitive tests.
STRESS = --filter '^StressTests\.'
NOT_STRESS = --skip '^StressTests\.'

# `make test` and `make demo` share one optimised build (.build/release, with -enable-testing so that tests can
# use @testable): whichever runs second only compiles what the first did not. The sanitizer stage is a debug build.
RELEASE = -c release -Xswiftc -enable-testing

test: deps
	scripts/install-test-tools.sh
	$(SWIFT) build $(RELEASE) --build-tests
	$(SWIFT) test $(RELEASE) --skip-build $(NOT_STRESS)
	$(SWIFT) test $(RELEASE) --skip-build $(STRESS)
	WEBIMAGE=$$($(SWIFT) build $(RELEASE) --show-bin-path)/webimage scripts/playground-test.sh
	scripts/damaged-fixtures-check.sh

# The whole suite under the thread sanitizer, in its own build folder; a report makes the run fail.
TSAN = --sanitize=thread --scratch-path .build-tsan
test-tsan: deps
	scripts/install-test-tools.sh
	$(SWIFT) build --build-tests $(TSAN)
	$(SWIFT) test --skip-build $(TSAN) $(NOT_STRESS)
	$(SWIFT) test --skip-build $(TSAN) $(STRESS)

demo: deps
	SWIFT_FLAGS="$(RELEASE)" scripts/demo.sh

bench: deps
	scripts/bench.sh

# The DocC documentation of the four libraries; any warning (an undocumented parameter, a broken link) fails it.
docs: deps
	for target in WebImageCore WebImageCoders WebImageKit WebImageServer; do \
		$(SWIFT) package generate-documentation --target $$target --warnings-as-errors || exit 1; \
	done

clean:
	rm -rf .build .build-* demo-output samples
