from a2acli.main import run

run()
