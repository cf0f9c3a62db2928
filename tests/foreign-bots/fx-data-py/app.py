"""fx-data-py: a Python bot reading its data folder with ``open``. At start-up it logs
``data read table: ok <characters>`` for /data/table.txt (or ``data read table: denied
(<exception>)``) and ``data write: denied (<exception>)`` (or ``ok``) for creating /data/new.txt,
then plays the first legal move."""

from arena import info
from arena.azul import Bot, export


class DataReader(Bot):
    def init(self, init_info):
        super().init(init_info)
        try:
            with open("/data/table.txt") as table:
                info(f"data read table: ok {len(table.read())}")
        except OSError as err:
            info(f"data read table: denied ({type(err).__name__})")
        try:
            with open("/data/new.txt", "w") as created:
                created.write("x")
            info("data write: ok")
        except OSError as err:
            info(f"data write: denied ({type(err).__name__})")

    def act(self, view):
        return view.legal_moves()[0]


Player = export(DataReader)
