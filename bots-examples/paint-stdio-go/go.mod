module example.com/paint-bot

go 1.27
