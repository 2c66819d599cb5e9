from advisor.cli.main import run

run()
