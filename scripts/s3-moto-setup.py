#!/usr/bin/env python3
"""Prepares a moto S3 server for S3MotoTests: waits for its port (a bare TCP connect, which moto does not count
as an action), then, within INITIAL_NO_AUTH_ACTION_COUNT=3 unauthenticated actions, creates an IAM user allowed
s3:* and an access key for it; with that key (moto now checks every signature) creates the bucket `images` and
uploads the file given as `photos/photo.jpg`. Prints the access key id and secret on one line.
Usage: moto-venv/bin/python scripts/s3-moto-setup.py PORT FILE"""
import json, socket, sys, time
import boto3

port, path = int(sys.argv[1]), sys.argv[2]
for _ in range(300):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        time.sleep(0.1)
endpoint = f"http://127.0.0.1:{port}"
iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
iam.create_user(UserName="webimage")
policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
iam.put_user_policy(UserName="webimage", PolicyName="s3", PolicyDocument=json.dumps(policy))
key = iam.create_access_key(UserName="webimage")["AccessKey"]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                  aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
s3.create_bucket(Bucket="images")
with open(path, "rb") as source:
    s3.put_object(Bucket="images", Key="photos/photo.jpg", Body=source.read(), ContentType="image/jpeg")
print(key["AccessKeyId"], key["SecretAccessKey"])
