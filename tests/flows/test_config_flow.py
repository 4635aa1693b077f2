"""flows.config called directly with an Invocation, no CLI runner: `show`'s rows and document,
and the config file changed by `set_value`, `unset_value` and `use`, each returning its exit code."""

from __future__ import annotations

import io
import json

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest

from a2acli.errors import UsageError
from a2acli.flows import config
from a2acli.flows.invocation import Environment, Invocation


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    path = tmp_path / "home" / "a2acli" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    monkeypatch.delenv("A2ACLI_PROFILE", raising=False)
    monkeypatch.chdir(tmp_path)
    return path


def read(path):
    return tomllib.loads(path.read_text())


def test_set_writes_a_first_profile_and_makes_it_the_default(cfg, capsys):
    assert config.set_value(Invocation(), "url", "http://127.0.0.1:9") == 0
    assert read(cfg) == {"default-profile": "default", "profiles": {"default": {"url": "http://127.0.0.1:9"}}}
    assert "url set in profile default" in capsys.readouterr().err


def test_set_reads_a_value_from_the_invocations_stdin(cfg):
    inv = Invocation(env=Environment(stdin=io.StringIO("s3cret\n")))
    assert config.set_value(inv, "api-key", "-", "prod") == 0
    assert read(cfg)["profiles"]["prod"]["api-key"] == "s3cret"


def test_a_header_set_twice_in_other_case_is_kept_once(cfg):
    config.set_value(Invocation(), "header.X-Team", "qa", "p")
    config.set_value(Invocation(), "header.x-team", "ops", "p")
    assert read(cfg)["profiles"]["p"]["headers"] == {"x-team": "ops"}


def test_unset_drops_the_key_and_its_emptied_table(cfg, capsys):
    config.set_value(Invocation(), "header.X-Team", "qa", "p")
    config.set_value(Invocation(), "url", "http://a.example", "p")
    assert config.unset_value(Invocation(), "header.X-Team", "p") == 0
    assert read(cfg)["profiles"]["p"] == {"url": "http://a.example"}
    assert config.unset_value(Invocation(), "a2a-version", "p") == 0
    assert "a2a-version was not set in profile p" in capsys.readouterr().err


def test_unset_of_a_profile_the_file_lacks_is_a_usage_error(cfg):
    config.set_value(Invocation(), "url", "http://a.example", "p")
    with pytest.raises(UsageError, match="no profile 'q'"):
        config.unset_value(Invocation(), "url", "q")


def test_use_makes_an_existing_profile_the_default_and_refuses_another(cfg):
    config.set_value(Invocation(), "url", "http://a.example", "a")
    config.set_value(Invocation(), "url", "http://b.example", "b")
    assert config.use(Invocation(), "b") == 0
    assert read(cfg)["default-profile"] == "b"
    with pytest.raises(UsageError, match="no profile 'c'"):
        config.use(Invocation(), "c")
    with pytest.raises(UsageError, match="not a usable profile name"):
        config.use(Invocation(), " b")


def test_show_gives_each_setting_its_value_and_source(cfg, capsys, monkeypatch):
    config.set_value(Invocation(), "url", "http://a.example", "p")
    config.set_value(Invocation(), "api-key", "secret-value", "p")
    capsys.readouterr()
    monkeypatch.setenv("A2ACLI_TIMEOUT", "7")
    inv = Invocation({"output": "json", "a2a_version": "0.3", "profile": "p"})
    assert config.show(inv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["profile"] == "p" and doc["profiles"] == ["p"]
    url = doc["settings"]["url"]
    assert (url["value"], url["file"], url["section"]) == ("http://a.example", str(cfg), "profiles.p")
    assert doc["settings"]["a2a-version"]["source"] == "flag"
    assert doc["settings"]["timeout"]["source"] == "env A2ACLI_TIMEOUT"
    assert "secret-value" not in json.dumps(doc)  # masked


def test_setting_rows_are_data_with_secrets_masked(cfg):
    rows = {
        name: (value, source)
        for name, value, source in config.setting_rows(Invocation({"bearer": "tok-123456789"}).options())
    }
    assert rows["bearer"][1] == "flag" and rows["bearer"][0] != "tok-123456789"
    assert rows["url"] == (None, "default")


def test_path_prints_the_config_file_on_the_invocations_stdout(cfg):
    out = io.StringIO()
    assert config.path(Invocation(env=Environment(stdout=out))) == 0
    assert out.getvalue() == f"{cfg}\n"


def test_completion_of_keys_and_values(cfg):
    assert "header." in config.keys("he") and all(k.startswith("a2a") for k in config.keys("a2a"))
    assert config.values("output", "js") == ["json"]
    config.set_value(Invocation(), "url", "http://a.example", "local")
    assert config.values("default-profile", "") == ["local"]
