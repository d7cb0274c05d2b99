module pkit-scripts/acmebench

go 1.22
