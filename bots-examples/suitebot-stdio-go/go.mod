module example.com/suitebot-bot

go 1.27
