# The two entry points the README gives: `make demo` and `make test`. Each installs what it needs first.
SWIFT ?= swift

.PHONY: deps build test test-tsan demo bench docs clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The whole suite under the thread sanitizer, in its own build folder; a report makes the run fail.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

demo: deps
	scripts/demo.sh

bench: deps
	scripts/bench.sh

# The DocC documentation of the three libraries; any warning (an undocumented parameter, a broken link) fails it.
docs: deps
	for target in WebImageCore WebImageCoders WebImageKit; do \
		$(SWIFT) package generate-documentation --target $$target --warnings-as-errors || exit 1; \
	done

clean:
	rm -rf .build .build-* demo-output samples
