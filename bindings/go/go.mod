module ctensor

go 1.24
