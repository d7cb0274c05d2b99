module pkit.test/tlogcheck

go 1.22.0

require (
	github.com/cloudflare/circl v1.5.0
	golang.org/x/mod v0.17.0
)

require golang.org/x/sys v0.10.0 // indirect
