//go:build tools

// litewitness (filippo.io/torchwood, pinned in go.mod), an independent c2sp.org/tlog-witness
// witness the MTC tests ask to cosign pkit's log. Built with
// `go build filippo.io/torchwood/cmd/litewitness` from this module, which pins its
// version and its dependencies' (go.sum).
package tools

import _ "filippo.io/torchwood/cmd/litewitness"
