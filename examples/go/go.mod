module ctensor-example

go 1.24

require ctensor v0.0.0

replace ctensor => ../../bindings/go
