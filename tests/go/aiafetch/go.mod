module pkit.test/aiafetch

go 1.22.0
