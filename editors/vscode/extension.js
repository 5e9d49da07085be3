// Starts `kibitzer lsp` for rule files and connects VS Code to it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("kibitzer").get("path", "kibitzer");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "kibitzer",
    "kibitzer rules",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "kibitzer" }, { scheme: "untitled", language: "kibitzer" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
