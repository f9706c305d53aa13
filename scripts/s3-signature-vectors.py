#!/usr/bin/env python3
"""Prints AWS Signature Version 4 vectors for S3 GET requests as botocore computes them, for S3SourceTests
(run with the moto venv's Python: benchmarks/work/moto-venv/bin/python scripts/s3-signature-vectors.py)."""
import datetime
from unittest import mock
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

cases = [
    ("http://127.0.0.1:9000/images/photos/photo.jpg", "us-east-1", None),
    ("https://bucket.s3.eu-central-1.amazonaws.com/a%20b/%C3%A9t%C3%A9.png?versionId=3HL4kqtJlcpXroDTDmJ%2Brmfk", "eu-central-1", None),
    ("http://localhost:4566/bucket/key.webp", "us-west-2", "SESSIONTOKEN123"),
]
when = datetime.datetime(2026, 11, 27, 8, 30, 0)
for url, region, token in cases:
    credentials = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token)
    request = AWSRequest(method="GET", url=url)
    with mock.patch("botocore.auth.get_current_datetime", return_value=when):
        S3SigV4Auth(credentials, "s3", region).add_auth(request)
    quoted_token = '"' + token + '"' if token else "nil"
    print(f'("{url}", "{region}", {quoted_token}, "{request.headers["Authorization"]}"),')
