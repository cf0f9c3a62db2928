module example.com/fx-go-data

go 1.27
