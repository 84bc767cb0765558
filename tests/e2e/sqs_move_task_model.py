"""Adds the message move task operations to the SQS service model of Debian's botocore.

Debian 12's awscli (2.9.19) and python3-boto3 (botocore 1.29.27) predate StartMessageMoveTask,
ListMessageMoveTasks and CancelMessageMoveTask (June 2023) but speak the Query protocol that
Inflight serves. botocore reads extra models from AWS_DATA_PATH before its own, so the tests write
Debian's model plus these three operations (the shapes of the 2023 Query-protocol model) to a
temporary folder and point AWS_DATA_PATH at it. Everything else in the clients stays as shipped.

Usage: python3 sqs_move_task_model.py OUTPUT_DIR   (then AWS_DATA_PATH=OUTPUT_DIR)
"""

import json
import os
import sys

MODEL = "sqs/2012-11-05/service-2.json"
BOTOCORE_DATA = [
    "/usr/lib/python3/dist-packages/awscli/botocore/data",  # the CLI's own botocore
    "/usr/lib/python3/dist-packages/botocore/data",  # python3-botocore (boto3)
]


def _operation(name, errors):
    return {
        "name": name,
        "http": {"method": "POST", "requestUri": "/"},
        "input": {"shape": name + "Request"},
        "output": {"shape": name + "Result", "resultWrapper": name + "Result"},
        "errors": [{"shape": e} for e in errors],
    }


def _member(shape):
    return {"shape": shape}


SHAPES = {
    "Long": {"type": "long"},
    "NullableInteger": {"type": "integer"},
    "NullableLong": {"type": "long"},
    "ResourceNotFoundException": {
        "type": "structure",
        "members": {},
        "error": {"code": "ResourceNotFoundException", "httpStatusCode": 404, "senderFault": True},
        "exception": True,
    },
    "StartMessageMoveTaskRequest": {
        "type": "structure",
        "required": ["SourceArn"],
        "members": {
            "SourceArn": _member("String"),
            "DestinationArn": _member("String"),
            "MaxNumberOfMessagesPerSecond": _member("NullableInteger"),
        },
    },
    "StartMessageMoveTaskResult": {
        "type": "structure",
        "members": {"TaskHandle": _member("String")},
    },
    "ListMessageMoveTasksRequest": {
        "type": "structure",
        "required": ["SourceArn"],
        "members": {"SourceArn": _member("String"), "MaxResults": _member("NullableInteger")},
    },
    "ListMessageMoveTasksResult": {
        "type": "structure",
        "members": {"Results": _member("ListMessageMoveTasksResultEntryList")},
    },
    "ListMessageMoveTasksResultEntryList": {
        "type": "list",
        "member": {
            "shape": "ListMessageMoveTasksResultEntry",
            "locationName": "ListMessageMoveTasksResultEntry",
        },
        "flattened": True,
    },
    "ListMessageMoveTasksResultEntry": {
        "type": "structure",
        "members": {
            "TaskHandle": _member("String"),
            "Status": _member("String"),
            "SourceArn": _member("String"),
            "DestinationArn": _member("String"),
            "MaxNumberOfMessagesPerSecond": _member("NullableInteger"),
            "ApproximateNumberOfMessagesMoved": _member("Long"),
            "ApproximateNumberOfMessagesToMove": _member("NullableLong"),
            "FailureReason": _member("String"),
            "StartedTimestamp": _member("Long"),
        },
    },
    "CancelMessageMoveTaskRequest": {
        "type": "structure",
        "required": ["TaskHandle"],
        "members": {"TaskHandle": _member("String")},
    },
    "CancelMessageMoveTaskResult": {
        "type": "structure",
        "members": {"ApproximateNumberOfMessagesMoved": _member("Long")},
    },
}

OPERATIONS = {
    "StartMessageMoveTask": _operation("StartMessageMoveTask", ["ResourceNotFoundException"]),
    "ListMessageMoveTasks": _operation("ListMessageMoveTasks", ["ResourceNotFoundException"]),
    "CancelMessageMoveTask": _operation("CancelMessageMoveTask", ["ResourceNotFoundException"]),
}


def write_model(output_dir):
    """Writes the extended model under output_dir; returns output_dir (the AWS_DATA_PATH)."""
    source = next(os.path.join(d, MODEL) for d in BOTOCORE_DATA if os.path.exists(os.path.join(d, MODEL)))
    with open(source, encoding="utf-8") as f:
        model = json.load(f)
    for name, shape in SHAPES.items():
        model["shapes"].setdefault(name, shape)
    for name, operation in OPERATIONS.items():
        model["operations"].setdefault(name, operation)
    target = os.path.join(output_dir, MODEL)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        json.dump(model, f)
    return output_dir


if __name__ == "__main__":
    write_model(sys.argv[1])
