module example.com/azul-bot

go 1.27
