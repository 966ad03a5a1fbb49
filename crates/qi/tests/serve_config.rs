//! `qi serve`'s settings: a flag wins over its QI_ variable, which wins over the `--config`
//! file, which wins over the default; `--print-config` masks secrets; a bad file is refused with
//! a message that names the setting.

use serde_json::Value;
use std::process::{Command, Output};

fn qi(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_qi"));
    command.args(args);
    // Only the variables the test names: none of the caller's QI_ settings.
    for (key, _) in std::env::vars() {
        if key.starts_with("QI_") {
            command.env_remove(key);
        }
    }
    command.envs(env.iter().copied());
    command.output().unwrap()
}

fn settings(args: &[&str], env: &[(&str, &str)]) -> Value {
    let out = qi(args, env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let parsed: Value = serde_json::from_slice(&out.stdout).unwrap();
    parsed["settings"].clone()
}

#[test]
fn a_flag_wins_over_its_variable_which_wins_over_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("qi.toml");
    std::fs::write(
        &file,
        "addr = \"127.0.0.1:7000\"\nmax-rooms = 50\nmax_sockets = 60\ngrace = 9\n\
         database = \"postgres://qi:from-file@db/qi\"\n",
    )
    .unwrap();
    let config = file.to_str().unwrap();
    let s = settings(
        &["serve", "--config", config, "--max-rooms", "70", "--print-config", "--json"],
        &[("QI_MAX_ROOMS", "80"), ("QI_MAX_SOCKETS", "90")],
    );
    assert_eq!(s["max_rooms"]["value"], "70", "the flag wins: {s}");
    assert_eq!(s["max_rooms"]["from"], "flag");
    assert_eq!(s["max_sockets"]["value"], "90", "the variable wins over the file");
    assert_eq!(s["max_sockets"]["from"], "environment");
    assert_eq!(s["addr"]["value"], "127.0.0.1:7000");
    assert_eq!(s["addr"]["from"], "file");
    assert_eq!(s["grace"]["value"], "9");
    assert_eq!(s["idle_timeout"]["from"], "default");
    assert_eq!(s["database"]["value"], "postgres://qi:***@db/qi", "masked: {s}");
    assert_eq!(s["redis"]["value"], Value::Null);

    // QI_CONFIG names the file as --config does; the text form is TOML that reads back.
    let out =
        qi(&["serve", "--print-config"], &[("QI_CONFIG", config), ("QI_DATABASE_URL", "postgres://qi:hunter2@h/qi")]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("hunter2") && !text.contains("from-file"), "{text}");
    let table: toml::Table = text.parse().expect("TOML");
    assert_eq!(table["max_rooms"].as_integer(), Some(50));
    assert_eq!(table["database"].as_str(), Some("postgres://qi:***@h/qi"));
}

#[test]
fn secrets_stay_out_of_help_and_come_from_files() {
    let out = qi(&["serve", "--help"], &[("QI_DATABASE_URL", "postgres://qi:hunter2@h/qi")]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("QI_DATABASE_URL") && !help.contains("hunter2"), "{help}");

    // A URL file that cannot be read stops the start with its name.
    let out = qi(&["serve", "--addr", "127.0.0.1:0"], &[("QI_DATABASE_URL_FILE", "/nonexistent/qi-db-url")]);
    assert!(!out.status.success());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("cannot read the PostgreSQL URL from /nonexistent/qi-db-url"), "{error}");
}

#[test]
fn a_bad_settings_file_is_refused_with_the_setting_named() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("max_romos = 5\n", "\"max_romos\" is not a setting of qi serve"),
        ("max_rooms = \"many\"\n", "many"),
        ("grace = 9999\n", "9999"),
        ("addr = [\n", "is not TOML"),
        ("print_config = true\n", "is not a setting"),
    ];
    for (text, expected) in cases {
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, text).unwrap();
        let out = qi(&["serve", "--config", file.to_str().unwrap(), "--print-config"], &[]);
        assert!(!out.status.success(), "{text}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains(expected), "{text}: {error}");
    }
    let out = qi(&["serve", "--config", "/nonexistent/qi.toml", "--print-config"], &[]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the settings file /nonexistent/qi.toml"));
}
