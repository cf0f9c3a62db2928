"""A tiny pure-Python random generator (xorshift64*), standing in for a third-party package
vendored into a bot's folder."""

MASK = (1 << 64) - 1


class XorShift:
    def __init__(self, seed):
        self.state = (seed & MASK) or 0x9E3779B97F4A7C15

    def next(self):
        x = self.state
        x ^= (x >> 12)
        x ^= (x << 25) & MASK
        x ^= (x >> 27)
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & MASK

    def below(self, n):
        return self.next() % n
