import Foundation
import Testing
@testable import WebImageServer

/// AWS Signature Version 4 and the `s3://` source's addressing, without a network.
@Suite struct S3SourceTests {
    static let example = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")

    @Test func theSignatureOfAWSsPublishedGetObjectExampleMatches() throws {
        // AWS's "Signature Calculations for the Authorization Header" example: GET /test.txt with Range, 2013-05-24.
        let url = try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt"))
        let date = Date(timeIntervalSince1970: 1_369_353_600)
        let headers = AWSSignatureV4(credentials: Self.example, region: "us-east-1")
            .signedHeaders(method: "GET", url: url, headers: ["Range": "bytes=0-9"], date: date)
        #expect(headers["x-amz-date"] == "20130524T000000Z")
        #expect(headers["authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// Vectors botocore computed for the same requests (`scripts/s3-signature-vectors.py`, 2026-11-27 08:30:00 UTC,
    /// key `AKIDEXAMPLE`): a path-style endpoint, a virtual-hosted URL with escaped UTF-8 and a version, a session token.
    static let botocoreVectors: [(url: String, region: String, token: String?, authorization: String)] = [
        ("http://127.0.0.1:9000/images/photos/photo.jpg", "us-east-1", nil,
         "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261127/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=4992455d7a443ccf610a664436e47f67d844d80264d8bca5890e0cd2391750fe"),
        ("https://bucket.s3.eu-central-1.amazonaws.com/a%20b/%C3%A9t%C3%A9.png?versionId=3HL4kqtJlcpXroDTDmJ%2Brmfk", "eu-central-1", nil,
         "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261127/eu-central-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=92adbef2ab3acaee8e4191989b0a7a8557fd5eb39313294cd28575997a616c0e"),
        ("http://localhost:4566/bucket/key.webp", "us-west-2", "SESSIONTOKEN123",
         "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261127/us-west-2/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=369c02a5365849997322697049cc8e863d1c39ebd69cbe123c1540b3bbe8e904"),
    ]

    @Test func signaturesMatchWhatBotocoreComputesForTheSameRequests() throws {
        for vector in Self.botocoreVectors {
            let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: vector.token)
            let url = try #require(URL(string: vector.url))
            let headers = AWSSignatureV4(credentials: credentials, region: vector.region)
                .signedHeaders(method: "GET", url: url, date: Date(timeIntervalSince1970: 1_795_768_200))
            #expect(headers["authorization"] == vector.authorization, "\(vector.url)")
        }
    }

    @Test func aSessionTokenIsSignedAndKeysAndQueriesAreEncodedAsS3Expects() throws {
        var credentials = Self.example
        credentials.sessionToken = "token/with+chars"
        let url = try #require(URL(string: "http://127.0.0.1:9000/bucket/photos/a%20b%2Bc.jpg?versionId=v%2B1"))
        let headers = AWSSignatureV4(credentials: credentials, region: "eu-west-1").signedHeaders(method: "GET", url: url, date: Date())
        #expect(headers["x-amz-security-token"] == "token/with+chars")
        #expect(headers["authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,") == true)
        #expect(AWSSignatureV4.canonicalPath(url) == "/bucket/photos/a%20b%2Bc.jpg")
        #expect(AWSSignatureV4.canonicalQuery(url) == "versionId=v%2B1")
        #expect(AWSSignatureV4.host(of: url) == "127.0.0.1:9000")
    }

    @Test func credentialsComeFromTheEnvironmentElseTheSharedFileProfile() throws {
        let environment = ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "ST"]
        #expect(AWSCredentials.load(environment: environment) == AWSCredentials(accessKeyID: "AK", secretAccessKey: "SK", sessionToken: "ST"))
        let file = """
            [default]
            aws_access_key_id = DEFAULTKEY
            aws_secret_access_key = defaultsecret
            # a comment
            [images]
            aws_access_key_id=IMAGESKEY
            aws_secret_access_key=imagessecret
            aws_session_token=imagestoken
            """
        #expect(AWSCredentials.parse(file, profile: "default") == AWSCredentials(accessKeyID: "DEFAULTKEY", secretAccessKey: "defaultsecret"))
        #expect(AWSCredentials.parse(file, profile: "images")?.sessionToken == "imagestoken")
        #expect(AWSCredentials.parse(file, profile: "missing") == nil)
    }

    @Test func objectsArePathStyleOnACustomEndpointAndVirtualHostedOnAWS() throws {
        let object = try #require(S3Source.object(of: "s3://my-bucket/photos/cat.jpg?versionId=3"))
        #expect(object.bucket == "my-bucket" && object.key == "photos/cat.jpg" && object.versionID == "3")
        let custom = S3Source(endpoint: URL(string: "http://127.0.0.1:9000/"), region: "us-east-1", credentials: nil, maximumBytes: 1, timeout: .seconds(1))
        #expect(custom.objectURL(bucket: object.bucket, key: object.key, versionID: object.versionID)?.absoluteString
            == "http://127.0.0.1:9000/my-bucket/photos/cat.jpg?versionId=3")
        let hosted = S3Source(
            endpoint: URL(string: "https://s3.example.net"), endpointUsesPathStyle: false, region: "us-east-1", credentials: nil, maximumBytes: 1,
            timeout: .seconds(1))
        #expect(hosted.objectURL(bucket: "media", key: "a/b.jpg", versionID: nil)?.absoluteString == "https://media.s3.example.net/a/b.jpg")
        #expect(try !ServerSettings(environment: ["IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE": "false"]).configuration().s3EndpointUsesPathStyle)
        let aws = S3Source(endpoint: nil, region: "eu-central-1", credentials: nil, maximumBytes: 1, timeout: .seconds(1))
        #expect(aws.objectURL(bucket: "b", key: "k.png", versionID: nil)?.absoluteString == "https://b.s3.eu-central-1.amazonaws.com/k.png")
        for bad in ["s3://bucket", "s3://bucket/", "s3:///key", "s3://bucket/a/../b", "http://bucket/key"] {
            #expect(S3Source.object(of: bad) == nil, "\(bad)")
        }
    }
}
