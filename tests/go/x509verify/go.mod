module pkit.test/x509verify

go 1.22.0
