use arena_sdk::code_character::prelude::*;

#[derive(Default)]
struct MyBot {
    seen: u32,
}

impl CodeCharacterBot for MyBot {
    // Optional: `init(&mut self, info: &InitInfo, statics: &StaticView)` gets the map once.
    fn act(&mut self, view: &View) -> Vec<Command> {
        // Units without a command keep their intents: command only the new bots.
        let mut commands = Vec::new();
        for bot in view.bots.iter().filter(|b| b.id > self.seen) {
            if let Some(flag) = view.nearest_flag(bot.position) {
                commands.push(Command::new(bot.id, Order::Move(flag)));
            }
        }
        self.seen = view.bots.iter().map(|b| b.id).max().unwrap_or(self.seen);
        commands
    }
}

arena_sdk::export_code_character_bot!(MyBot);
