// A real OpenID Connect provider for the SSO browser test: `node provider.mjs PORT REDIRECT_URI`.
// oidc-provider's development login form accepts any login; the account's email claim is that login,
// so the test signs in as whichever email it types.
import Provider from "oidc-provider";

const [port, redirectUri] = process.argv.slice(2);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: "skillnet", client_secret: "skillnet-test-secret", redirect_uris: [redirectUri],
    grant_types: ["authorization_code"], response_types: ["code"],
  }],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  findAccount: async (ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: id, email_verified: true, name: id }),
  }),
  // the email claim in the ID token itself (Streamlit reads the user from the ID token)
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ["skillnet-test-only"] },
});
provider.listen(Number(port), "127.0.0.1", () => console.log(`ready ${port}`));
