#!/usr/bin/env python3
"""Write test-vectors.json for the Ringback end-to-end format (version 1, with its later additions: requests
addressed to a computer, passphrase keys version 2, sealed device names).

This is an independent implementation of the format (Python `cryptography`, no code shared with the
TypeScript package), so the vectors check the package instead of echoing it. Every input is fixed, so the
output is the same on every run:

    python3 scripts/make-test-vectors.py           # rewrite ../test-vectors.json
    python3 scripts/make-test-vectors.py --check   # exit 1 if the file differs from what this script writes

Needs Python 3.9+ and `pip install cryptography` (made with cryptography 48).
"""

import argparse
import base64
import hashlib
import json
import re
import sys
import unicodedata
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hmac import HMAC
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

# --- The format (ARCHITECTURE.md "End-to-end format (version 1)") -------------------------------------------

KEY_PREFIX = "rbk1_"
KEY_BYTES = 32
IV_BYTES = 12
TAG_BYTES = 16
SEALED_VERSION = "e2e1"
KEY_ID_LABEL = b"ringback/e2e/v1/key-id"
PASSPHRASE_SALT = b"ringback/e2e/v1"
PBKDF2_ITERATIONS = 600_000
PASSPHRASE_MIN_CODE_POINTS = 12
# Passphrase keys, version 2: scrypt salted with the account id.
PASSPHRASE_V2_SALT_PREFIX = "ringback/e2e/v2/passphrase/"
SCRYPT_COST = 2 ** 17
SCRYPT_BLOCK_SIZE = 8
SCRYPT_PARALLELISM = 1
AAD_PURPOSES = ["report", "reply", "reply-error", "settings-request", "settings-result", "key-rotation", "fleet"]
# Messages a device sends to one computer, which it runs: the associated data names the computer too.
ADDRESSED_AAD_PURPOSES = ["settings-request", "reply", "permission-decision"]
# A device's name: the purpose alone (the device seals it before the relay gives it an id), padded to one length.
DEVICE_NAME_AAD = "ringback/v1/device-name"
DEVICE_NAME_PADDED_BYTES = 1024


class FormatError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict: only the url alphabet, no padding, and the text must be the canonical encoding."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64url_encode(data) != text:
        raise ValueError("not canonical")
    return data


def format_key(raw: bytes) -> str:
    assert len(raw) == KEY_BYTES
    return KEY_PREFIX + b64url_encode(raw)


def parse_key(text: str) -> bytes:
    if not text.startswith(KEY_PREFIX):
        raise FormatError("invalid_key")
    try:
        raw = b64url_decode(text[len(KEY_PREFIX):])
    except ValueError:
        raise FormatError("invalid_key") from None
    if len(raw) != KEY_BYTES:
        raise FormatError("invalid_key")
    return raw


def key_id(raw: bytes) -> str:
    digest = hashes.Hash(hashes.SHA256())
    digest.update(KEY_ID_LABEL + raw)
    return digest.finalize()[:8].hex()


def normalised_passphrase(phrase: str) -> str:
    normalised = unicodedata.normalize("NFC", phrase)
    if len(normalised) < PASSPHRASE_MIN_CODE_POINTS:  # len() of a Python str counts code points
        raise FormatError("passphrase_too_short")
    return normalised


def key_from_passphrase(phrase: str) -> str:
    """Version 1: PBKDF2 with the fixed application salt."""
    kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=PASSPHRASE_SALT,
                     iterations=PBKDF2_ITERATIONS)
    return format_key(kdf.derive(normalised_passphrase(phrase).encode("utf-8")))


def key_from_passphrase_v2(phrase: str, account_id: str) -> str:
    """Version 2: scrypt salted with the account id."""
    normalised = normalised_passphrase(phrase)
    if not valid_id(account_id):
        raise FormatError("invalid_account_id")
    kdf = Scrypt(salt=(PASSPHRASE_V2_SALT_PREFIX + account_id).encode("utf-8"), length=KEY_BYTES,
                 n=SCRYPT_COST, r=SCRYPT_BLOCK_SIZE, p=SCRYPT_PARALLELISM)
    return format_key(kdf.derive(normalised.encode("utf-8")))


def valid_id(ident: str) -> bool:
    return bool(ident) and "/" not in ident and not any(ord(c) < 0x20 or ord(c) == 0x7F for c in ident)


def aad_for(purpose: str, ident: str) -> str:
    assert purpose in AAD_PURPOSES and valid_id(ident)
    return f"ringback/v1/{purpose}/{ident}"


def aad_to(purpose: str, computer_id: str, ident: str) -> str:
    assert purpose in ADDRESSED_AAD_PURPOSES and valid_id(computer_id) and valid_id(ident)
    return f"ringback/v2/{purpose}/{computer_id}/{ident}"


def seal(key: str, aad: str, plaintext: str, iv: bytes) -> str:
    raw = parse_key(key)
    assert len(iv) == IV_BYTES
    ciphertext = AESGCM(raw).encrypt(iv, plaintext.encode("utf-8"), aad.encode("utf-8"))
    return ".".join([SEALED_VERSION, key_id(raw), b64url_encode(iv), b64url_encode(ciphertext)])


def open_sealed(key: str, aad: str, sealed: str) -> str:
    raw = parse_key(key)
    fields = sealed.split(".")
    if len(fields) != 4 or fields[0] != SEALED_VERSION or not re.fullmatch(r"[0-9a-f]{16}", fields[1]):
        raise FormatError("corrupted")
    try:
        iv = b64url_decode(fields[2])
        ciphertext = b64url_decode(fields[3])
    except ValueError:
        raise FormatError("corrupted") from None
    if len(iv) != IV_BYTES or len(ciphertext) < TAG_BYTES:
        raise FormatError("corrupted")
    if fields[1] != key_id(raw):
        raise FormatError("key_mismatch")
    try:
        return AESGCM(raw).decrypt(iv, ciphertext, aad.encode("utf-8")).decode("utf-8")
    except (InvalidTag, UnicodeDecodeError):
        raise FormatError("corrupted") from None


def expect_error(code: str, action) -> None:
    try:
        action()
    except FormatError as error:
        assert error.code == code, f"expected {code}, got {error.code}"
        return
    raise AssertionError(f"expected {code}, got success")


# --- Fixed inputs ------------------------------------------------------------------------------------------


def fixed_bytes(label: str, length: int) -> bytes:
    """Random-looking but fixed bytes, so the vectors never depend on a random generator."""
    return hashlib.sha256(f"ringback test vectors/{label}".encode("utf-8")).digest()[:length]


# Padded JSON: spaces after the JSON text up to a size bucket, so the relay sees only the bucket.
PAD_MIN_BYTES = 256
PAD_LINEAR_FROM_BYTES = 64 * 1024


def padded_length(size: int) -> int:
    if size > PAD_LINEAR_FROM_BYTES:
        return -(-size // PAD_LINEAR_FROM_BYTES) * PAD_LINEAR_FROM_BYTES
    length = PAD_MIN_BYTES
    while length < size:
        length *= 2
    return length


def padded_json_text(value) -> str:
    text = json_text(value)
    size = len(text.encode("utf-8"))
    return text + " " * (padded_length(size) - size)


PADDED_LENGTHS = [0, 1, 255, 256, 257, 1000, 1024, 1025, 65535, 65536, 65537, 131072, 131073, 819200, 838861]


def json_text(value) -> str:
    # The same text as JavaScript's JSON.stringify for these values: no spaces, non-ASCII kept as is.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


KEY_A = format_key(fixed_bytes("key A", KEY_BYTES))
KEY_B = format_key(fixed_bytes("key B", KEY_BYTES))
EVENT_ID = "claude:5b1f0c7e-3a9d-4e62-9f0a-1c2d3e4f5a6b:prompt-7"

REPORT_VALUE = {
    "report": {"source": "claude", "summary": "Tests fixés, 2 échecs restants", "exitCode": 1},
    "brief": {"language": "fr-FR", "spoken": "Les tests sont corrigés ✅. Il reste deux échecs.",
              "facts": ["2 échecs", "packages/outbox"]},
}
# A removal's new key, sealed under the old one for the devices and computers that stay.
KEY_ROTATION_VALUE = {"key": "rbk1_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "rotatedAt": "2026-12-06T10:00:00.000Z",
                      "removedDeviceId": "dev_7c1e9a0b4d2f"}
SETTINGS_REQUEST_VALUE = {"op": "get", "keys": ["language", "voice", "ringSchedule"], "nonce": 42}

REQUEST_ID = "6a0f3c9e2b7d41e8a5c3f0b9d2e7a1c4"

SEAL_CASES = [
    # name, purpose, id, key, plaintext or JSON value
    ("report as JSON (non-ASCII)", "report", EVENT_ID, KEY_A, REPORT_VALUE),
    ("reply with non-ASCII text", "reply", EVENT_ID, KEY_A,
     "Oui, relance les tests — merci ! 🚀 日本語も大丈夫。"),
    ("reply error", "reply-error", "rpl_01J9ZQ4K7M2N8P3R5T6V7W8X9Y", KEY_A, "cannot decrypt reply"),
    ("settings request as JSON", "settings-request", "req-42", KEY_A, SETTINGS_REQUEST_VALUE),
    ("settings result", "settings-result", "req-42", KEY_A, '{"ok":true,"language":"en-GB"}'),
    ("empty reply", "reply", "codex:0198f3a2-turn-3", KEY_B, ""),
    ("key rotation notice as JSON", "key-rotation", REQUEST_ID, KEY_A, KEY_ROTATION_VALUE),
    ("long report text over many AES blocks", "report", "tracker:task-8731", KEY_B,
     "Line of a long report, with tabs\tand newlines.\n" * 20),
    ("fleet state as JSON", "fleet", "dev_3f9a1c2b7e5d", KEY_A,
     {"version": 1, "updatedAt": "2026-12-07T03:00:00.000Z", "agents": []}),
]

COMPUTER_ID = "dev_3f9a1c2b7e5d"


def stamp(label: str) -> dict:
    """The time and nonce a device seals into every request it addresses to a computer."""
    return {"sentAt": "2026-11-25T10:00:00.000Z", "nonce": b64url_encode(fixed_bytes(f"nonce/{label}", 16))}


ADDRESSED_SEAL_CASES = [
    # name, purpose, computer id, id, key, JSON value
    ("settings request addressed to a computer", "settings-request", COMPUTER_ID, REQUEST_ID, KEY_A,
     {"method": "PUT", "path": "/llm/settings",
      "body": {"baseUrl": "http://127.0.0.1:8080/v1", "model": "qwen3-0.6b"}, **stamp("settings")}),
    ("dispatch addressed to a computer (non-ASCII words)", "settings-request", COMPUTER_ID, "req-43", KEY_B,
     {"method": "POST", "path": "/tracker/dispatches",
      "body": {"issueId": "RING-12", "prompt": "Ajoute un mode sombre — merci ! 🌙"}, **stamp("dispatch")}),
    ("reply addressed to a computer", "reply", COMPUTER_ID, EVENT_ID, KEY_A,
     {"replyId": "r_9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f", "text": "Oui, relance les tests.", **stamp("reply")}),
    ("deny of a permission ask, with a reason", "permission-decision", COMPUTER_ID, "needs_Qm9yZ2V0LW1lLW5vdA", KEY_A,
     {"replyId": "r_0a1b2c3d4e5f60718293a4b5c6d7e8f9", "eventId": "needs_Qm9yZ2V0LW1lLW5vdA",
      "toolInputDigest": hashlib.sha256(b'{"command":"rm -rf build"}').hexdigest(), "verdict": "deny",
      "reason": "Não apague o build — use pnpm clean.", **stamp("decision")}),
]

PASSPHRASES = [
    ("ASCII", "correct horse battery staple"),
    ("precomposed (NFC)", "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e"),
    ("decomposed (NFD) input: same key as its NFC form", "cafe\u0301 cre\u0300me bru\u0302le\u0301e"),
    ("exactly 12 code points", "twelve chars"),
    ("12 emoji: 12 code points, 24 UTF-16 units", "\U0001F511" * 12),
    ("spaces are kept, not trimmed", " correct horse battery staple "),
]

ACCOUNT_A = "acc_Vq3nX8kR2mPz7Lw1"
ACCOUNT_B = "acc_J5tY0hD9sQe4Wb6u"
PASSPHRASES_V2 = [
    # name, phrase, account id
    ("ASCII, account A", "correct horse battery staple", ACCOUNT_A),
    ("the same phrase in account B: another key", "correct horse battery staple", ACCOUNT_B),
    ("decomposed (NFD) input: same key as its NFC form", "cafe\u0301 cre\u0300me bru\u0302le\u0301e", ACCOUNT_A),
    ("12 emoji", "\U0001F511" * 12, ACCOUNT_A),
]
PASSPHRASE_V2_FAILURES = [
    # name, phrase, account id, code
    ("11 code points", "eleven char", ACCOUNT_A, "passphrase_too_short"),
    ("no account id", "correct horse battery staple", "", "invalid_account_id"),
    ("an account id with a slash", "correct horse battery staple", "acc/1", "invalid_account_id"),
]

SHORT_PASSPHRASES = [
    ("empty", ""),
    ("11 code points", "eleven char"),
    ("22 code points decomposed, 11 after NFC", "e\u0301" * 11),
    ("11 emoji: 22 UTF-16 units but 11 code points", "\U0001F511" * 11),
]

KEY_ID_KEYS = [
    ("all zero bytes", bytes(KEY_BYTES)),
    ("bytes 0..31", bytes(range(KEY_BYTES))),
    ("all 0xff bytes", bytes([0xFF]) * KEY_BYTES),
    ("key A", parse_key(KEY_A)),
    ("key B", parse_key(KEY_B)),
]

KEY_A_BODY = KEY_A[len(KEY_PREFIX):]
INVALID_KEYS = [
    ("empty", ""),
    ("prefix only", KEY_PREFIX),
    ("no prefix", KEY_A_BODY),
    ("other version", "rbk2_" + KEY_A_BODY),
    ("upper-case prefix", "RBK1_" + KEY_A_BODY),
    ("one character short", KEY_A[:-1]),
    ("one character long", KEY_A + "A"),
    ("padded", KEY_A + "="),
    ("standard base64 alphabet", KEY_PREFIX + "+" + KEY_A_BODY[1:]),
    ("leading space", " " + KEY_A),
    ("trailing newline", KEY_A + "\n"),
    ("space inside", KEY_A[:20] + " " + KEY_A[21:]),
    ("non-canonical last character (unused bits set)", KEY_A[:-1] + "B"),
    ("16 bytes", KEY_PREFIX + b64url_encode(bytes(16))),
]


def iv_for(name: str) -> bytes:
    return fixed_bytes(f"iv/{name}", IV_BYTES)


def make_seal_vectors():
    vectors = []
    for name, purpose, ident, key, content in SEAL_CASES:
        plaintext = content if isinstance(content, str) else json_text(content)
        aad = aad_for(purpose, ident)
        iv = iv_for(name)
        sealed = seal(key, aad, plaintext, iv)
        assert open_sealed(key, aad, sealed) == plaintext
        vector = {"name": name, "purpose": purpose, "id": ident, "aad": aad, "key": key,
                  "keyId": key_id(parse_key(key)), "iv": b64url_encode(iv), "plaintext": plaintext}
        if not isinstance(content, str):
            vector["json"] = content
        vector["sealed"] = sealed
        vectors.append(vector)
    return vectors


def make_addressed_seal_vectors():
    vectors = []
    for name, purpose, computer_id, ident, key, value in ADDRESSED_SEAL_CASES:
        plaintext = json_text(value)
        aad = aad_to(purpose, computer_id, ident)
        iv = iv_for(name)
        sealed = seal(key, aad, plaintext, iv)
        assert open_sealed(key, aad, sealed) == plaintext
        vectors.append({"name": name, "purpose": purpose, "computerId": computer_id, "id": ident, "aad": aad,
                        "key": key, "keyId": key_id(parse_key(key)), "iv": b64url_encode(iv),
                        "plaintext": plaintext, "json": value, "sealed": sealed})
    return vectors


PADDED_SEAL_CASES = [
    # name, purpose, id, key, JSON value
    ("report, padded to its bucket", "report", EVENT_ID, KEY_A, REPORT_VALUE),
    ("short reply, padded to the smallest bucket", "reply", EVENT_ID, KEY_B,
     {"replyId": "r_1", "text": "Oui.", **stamp("padded reply")}),
]


def make_padded_seal_vectors():
    vectors = []
    for name, purpose, ident, key, value in PADDED_SEAL_CASES:
        plaintext = padded_json_text(value)
        assert len(plaintext.encode("utf-8")) == padded_length(len(json_text(value).encode("utf-8")))
        aad = aad_for(purpose, ident)
        iv = iv_for(name)
        sealed = seal(key, aad, plaintext, iv)
        assert json.loads(open_sealed(key, aad, sealed)) == value
        vectors.append({"name": name, "purpose": purpose, "id": ident, "aad": aad, "key": key,
                        "keyId": key_id(parse_key(key)), "iv": b64url_encode(iv), "plaintext": plaintext,
                        "json": value, "sealed": sealed})
    return vectors


DEVICE_NAME_CASES = [
    # name, key, device name
    ("short ASCII name", KEY_A, "Pixel 8"),
    ("non-ASCII name", KEY_A, "T\u00e9l\u00e9phone de Zo\u00eb \U0001F4F1"),
    ("100 CJK characters (300 UTF-8 bytes)", KEY_B, "\u7535" * 100),
    ("quotes and a backslash", KEY_A, 'Bob\'s "work" \\ laptop'),
    ("100 characters JSON writes as \\u escapes (the longest JSON of a name)", KEY_B, "\u0001" * 100),
]


def device_name_plaintext(name: str) -> str:
    text = json_text({"name": name})
    size = len(text.encode("utf-8"))
    assert size <= DEVICE_NAME_PADDED_BYTES
    return text + " " * (DEVICE_NAME_PADDED_BYTES - size)


def make_device_name_vectors():
    vectors = []
    for name, key, device_name in DEVICE_NAME_CASES:
        plaintext = device_name_plaintext(device_name)
        assert len(plaintext.encode("utf-8")) == DEVICE_NAME_PADDED_BYTES
        iv = iv_for(f"device name/{name}")
        sealed = seal(key, DEVICE_NAME_AAD, plaintext, iv)
        assert json.loads(open_sealed(key, DEVICE_NAME_AAD, sealed)) == {"name": device_name}
        vectors.append({"name": name, "aad": DEVICE_NAME_AAD, "key": key, "keyId": key_id(parse_key(key)),
                        "iv": b64url_encode(iv), "deviceName": device_name, "plaintext": plaintext,
                        "sealed": sealed})
    assert len({len(vector["sealed"]) for vector in vectors}) == 1
    return vectors


# A computer's fleet state: its JSON text and spaces up to the next multiple of the step (protocol's
# FLEET_PAD_STEP_BYTES), so the relay learns only the number of steps.
FLEET_PAD_STEP_BYTES = 1024


def fleet_agent(index: int, state: str, project: str, headline) -> dict:
    return {"agentId": f"claude:0198f3a2-{index}", "source": "claude", "project": project, "state": state,
            "since": "2026-12-07T02:48:00.000Z", "eventId": None if state == "working" else f"claude:0198f3a2-{index}:t",
            "headline": headline}


FLEET_CASES = [
    # name, key, computer id, JSON value
    ("no agents: one step", KEY_A, COMPUTER_ID, {"version": 0, "updatedAt": "2026-12-07T03:00:00.000Z", "agents": []}),
    ("three agents, non-ASCII", KEY_B, COMPUTER_ID,
     {"version": 7, "updatedAt": "2026-12-07T03:01:00.000Z", "agents": [
         fleet_agent(1, "needs-you", "paiements", "Il veut lancer la migration — d'accord ?"),
         fleet_agent(2, "finished", "文档", "链接已修复。"),
         fleet_agent(3, "working", "search", None)]}),
    ("twelve agents: more than one step", KEY_A, "dev_9b8a7c6d5e4f",
     {"version": 42, "updatedAt": "2026-12-07T03:02:00.000Z",
      "agents": [fleet_agent(index, "finished", f"project-{index}", "Tests pass, the docs are updated.")
                 for index in range(12)]}),
]


def make_fleet_vectors():
    vectors = []
    for name, key, computer_id, value in FLEET_CASES:
        text = json_text(value)
        size = len(text.encode("utf-8"))
        plaintext = text + " " * (-(-size // FLEET_PAD_STEP_BYTES) * FLEET_PAD_STEP_BYTES - size)
        aad = aad_for("fleet", computer_id)
        iv = iv_for(f"fleet/{name}")
        sealed = seal(key, aad, plaintext, iv)
        assert json.loads(open_sealed(key, aad, sealed)) == value
        plaintext_bytes = len(b64url_decode(sealed.split(".")[3])) - TAG_BYTES
        assert plaintext_bytes == len(plaintext.encode("utf-8")) and plaintext_bytes % FLEET_PAD_STEP_BYTES == 0
        vectors.append({"name": name, "computerId": computer_id, "aad": aad, "key": key,
                        "keyId": key_id(parse_key(key)), "iv": b64url_encode(iv), "padStepBytes": FLEET_PAD_STEP_BYTES,
                        "plaintext": plaintext, "plaintextBytes": plaintext_bytes, "json": value, "sealed": sealed})
    assert len({vector["plaintextBytes"] for vector in vectors}) > 1
    return vectors


# A tracker task id as the relay sees it: HMAC-SHA256 under HKDF-SHA256(e2e key, no salt, info).
TASK_ID_DIGEST_INFO = b"ringback/e2e/v1/task-id"
TASK_ID_CASES = [
    ("a Multica task id", KEY_A, "7c0f9e4a-2b1d-4e8f-9a3c-5d6e7f8a9b0c"),
    ("the same task id under another account's key", KEY_B, "7c0f9e4a-2b1d-4e8f-9a3c-5d6e7f8a9b0c"),
    ("non-ASCII", KEY_A, "tâche-№7"),
]


def task_id_digest(key: str, task_id: str) -> str:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=TASK_ID_DIGEST_INFO).derive(parse_key(key))
    mac = HMAC(derived, hashes.SHA256())
    mac.update(task_id.encode("utf-8"))
    return b64url_encode(mac.finalize())


def tamper(sealed: str, field: int, byte_index: int) -> str:
    fields = sealed.split(".")
    data = bytearray(b64url_decode(fields[field]))
    data[byte_index] ^= 0x01
    fields[field] = b64url_encode(bytes(data))
    return ".".join(fields)


def make_open_failures(seal_vectors, addressed_vectors, device_name_vectors):
    report, reply = seal_vectors[0], seal_vectors[1]
    device_name = device_name_vectors[0]
    addressed = addressed_vectors[0]
    sealed = reply["sealed"]
    fields = sealed.split(".")
    short_ciphertext = ".".join(fields[:3] + [b64url_encode(bytes(TAG_BYTES - 1))])
    cases = [
        ("tampered ciphertext byte", KEY_A, reply["aad"], tamper(sealed, 3, 0), "corrupted"),
        ("tampered tag byte", KEY_A, reply["aad"], tamper(sealed, 3, -1), "corrupted"),
        ("tampered iv", KEY_A, reply["aad"], tamper(sealed, 2, 0), "corrupted"),
        ("wrong associated data (other event id)", KEY_A, aad_for("report", "claude:other-event"),
         report["sealed"], "corrupted"),
        ("wrong associated data (reply sealed, opened as report)", KEY_A, aad_for("report", reply["id"]),
         sealed, "corrupted"),
        ("wrong key", KEY_B, reply["aad"], sealed, "key_mismatch"),
        ("addressed request opened as addressed to another computer", KEY_A,
         aad_to("settings-request", "dev_other", addressed["id"]), addressed["sealed"], "corrupted"),
        ("addressed request opened as an older (unaddressed) settings request", KEY_A,
         aad_for("settings-request", addressed["id"]), addressed["sealed"], "corrupted"),
        ("three fields", KEY_A, reply["aad"], ".".join(fields[:3]), "corrupted"),
        ("five fields", KEY_A, reply["aad"], sealed + ".x", "corrupted"),
        ("unknown version", KEY_A, reply["aad"], "e2e2." + ".".join(fields[1:]), "corrupted"),
        ("upper-case key id", KEY_A, reply["aad"], ".".join([fields[0], fields[1].upper()] + fields[2:]),
         "corrupted"),
        ("padded iv", KEY_A, reply["aad"], ".".join(fields[:2] + [fields[2] + "=", fields[3]]), "corrupted"),
        ("iv of 16 bytes", KEY_A, reply["aad"],
         ".".join(fields[:2] + [b64url_encode(bytes(16)), fields[3]]), "corrupted"),
        ("ciphertext shorter than a tag", KEY_A, reply["aad"], short_ciphertext, "corrupted"),
        ("empty string", KEY_A, reply["aad"], "", "corrupted"),
        ("device name opened as a report", KEY_A, aad_for("report", EVENT_ID), device_name["sealed"],
         "corrupted"),
        ("report opened as a device name", KEY_A, DEVICE_NAME_AAD, report["sealed"], "corrupted"),
    ]
    vectors = []
    for name, key, aad, broken, code in cases:
        expect_error(code, lambda: open_sealed(key, aad, broken))
        vectors.append({"name": name, "key": key, "aad": aad, "sealed": broken, "expect": code})
    return vectors


def make_vectors():
    seal_vectors = make_seal_vectors()
    addressed_vectors = make_addressed_seal_vectors()
    device_name_vectors = make_device_name_vectors()
    passphrases = []
    for name, phrase in PASSPHRASES:
        passphrases.append({"name": name, "passphrase": phrase, "key": key_from_passphrase(phrase)})
    nfc = next(v for v in passphrases if v["name"].startswith("precomposed"))
    nfd = next(v for v in passphrases if v["name"].startswith("decomposed"))
    assert nfc["passphrase"] != nfd["passphrase"] and nfc["key"] == nfd["key"]
    passphrases_v2 = []
    for name, phrase, account_id in PASSPHRASES_V2:
        key = key_from_passphrase_v2(phrase, account_id)
        passphrases_v2.append({"name": name, "passphrase": phrase, "accountId": account_id, "key": key,
                               "keyId": key_id(parse_key(key))})
    same_phrase = [v for v in passphrases_v2 if v["passphrase"] == "correct horse battery staple"]
    assert len({v["key"] for v in same_phrase}) == 2 and len({v["keyId"] for v in same_phrase}) == 2
    v1_of_same = key_from_passphrase("correct horse battery staple")
    assert all(v["key"] != v1_of_same for v in same_phrase)
    nfc_v2 = key_from_passphrase_v2("caf\u00e9 cr\u00e8me br\u00fbl\u00e9e", ACCOUNT_A)
    assert nfc_v2 == next(v for v in passphrases_v2 if v["name"].startswith("decomposed"))["key"]
    v2_failures = []
    for name, phrase, account_id, code in PASSPHRASE_V2_FAILURES:
        expect_error(code, lambda: key_from_passphrase_v2(phrase, account_id))
        v2_failures.append({"name": name, "passphrase": phrase, "accountId": account_id, "expect": code})
    short = []
    for name, phrase in SHORT_PASSPHRASES:
        expect_error("passphrase_too_short", lambda: key_from_passphrase(phrase))
        short.append({"name": name, "passphrase": phrase, "expect": "passphrase_too_short"})
    invalid_keys = []
    for name, text in INVALID_KEYS:
        expect_error("invalid_key", lambda: parse_key(text))
        invalid_keys.append({"name": name, "text": text, "expect": "invalid_key"})
    return {
        "description": "Ringback end-to-end format v1 test vectors. Strings are JSON-escaped (\\uXXXX) so "
                       "NFC and NFD forms stay visible. Binary values are base64url without padding.",
        # No tool versions here: the file must not change when it is regenerated elsewhere.
        "generator": "packages/e2e-crypto/scripts/make-test-vectors.py (Python, pyca/cryptography)",
        "format": {
            "keyPrefix": KEY_PREFIX,
            "keyBytes": KEY_BYTES,
            "ivBytes": IV_BYTES,
            "tagBytes": TAG_BYTES,
            "sealedVersion": SEALED_VERSION,
            "keyIdLabel": KEY_ID_LABEL.decode("ascii"),
            "passphraseSalt": PASSPHRASE_SALT.decode("ascii"),
            "pbkdf2Iterations": PBKDF2_ITERATIONS,
            "passphraseMinCodePoints": PASSPHRASE_MIN_CODE_POINTS,
            "passphraseV2SaltPrefix": PASSPHRASE_V2_SALT_PREFIX,
            "scryptCost": SCRYPT_COST,
            "scryptBlockSize": SCRYPT_BLOCK_SIZE,
            "scryptParallelism": SCRYPT_PARALLELISM,
            "padMinBytes": PAD_MIN_BYTES,
            "padLinearFromBytes": PAD_LINEAR_FROM_BYTES,
            "taskIdDigestInfo": TASK_ID_DIGEST_INFO.decode("ascii"),
            "deviceNameAad": DEVICE_NAME_AAD,
            "deviceNamePaddedBytes": DEVICE_NAME_PADDED_BYTES,
        },
        "seal": seal_vectors,
        "sealAddressed": addressed_vectors,
        "sealPadded": make_padded_seal_vectors(),
        "taskIdDigests": [{"name": name, "key": key, "taskId": task_id, "digest": task_id_digest(key, task_id)}
                          for name, key, task_id in TASK_ID_CASES],
        "paddedLengths": [{"bytes": size, "padded": padded_length(size)} for size in PADDED_LENGTHS],
        "sealDeviceNames": device_name_vectors,
        "sealFleetStates": make_fleet_vectors(),
        "openFailures": make_open_failures(seal_vectors, addressed_vectors, device_name_vectors),
        "passphrases": passphrases,
        "passphraseFailures": short,
        "passphrasesV2": passphrases_v2,
        "passphraseV2Failures": v2_failures,
        "keyIds": [{"name": name, "key": format_key(raw), "keyId": key_id(raw)} for name, raw in KEY_ID_KEYS],
        "invalidKeys": invalid_keys,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "test-vectors.json")
    args = parser.parse_args()
    text = json.dumps(make_vectors(), ensure_ascii=True, indent=2) + "\n"
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} differs from what this script writes", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
